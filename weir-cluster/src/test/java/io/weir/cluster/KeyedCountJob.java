package io.weir.cluster;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * generator -> keyBy -> map (with a gauge) -> exactly-once file sink, parallelism 2: the keyed
 * exchange crosses task managers. Arguments: output directory, record count, records per second per
 * subtask, and optionally how many restarts the job allows (default: the job's default strategy).
 */
public final class KeyedCountJob {
  private KeyedCountJob() {}

  /** Labels an id, counting the ids it labelled in a gauge that heartbeats carry. */
  static final class Label extends RichMapFunction<Long, String> {
    private transient AtomicLong labelled;

    @Override
    public void open() {
      labelled = new AtomicLong();
      getRuntimeContext().metricGroup().gauge("ids_labelled", labelled::get);
    }

    @Override
    public String map(Long id) {
      labelled.incrementAndGet();
      return "id-" + id;
    }
  }

  public static void main(String[] args) throws Exception {
    Path output = Path.of(args[0]);
    long count = Long.parseLong(args[1]);
    long rate = Long.parseLong(args[2]);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    if (args.length > 3) {
      env.setRestartStrategy(
          RestartStrategy.fixedDelay(Integer.parseInt(args[3]), Duration.ofMillis(100)));
    }
    env.addSource(new GeneratorSource<>(count, index -> index, rate))
        .name("Ids")
        .uid("ids")
        .keyBy(id -> id % 16)
        .map(new Label())
        .uid("label")
        .addSink(FileSink.<String>forDirectory(output).build())
        .name("Files")
        .uid("files");
    env.execute("keyed-count");
  }
}
