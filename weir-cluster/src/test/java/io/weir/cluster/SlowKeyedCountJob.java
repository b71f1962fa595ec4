package io.weir.cluster;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;

/**
 * generator -> keyBy(id % {@link #KEYS}) -> running count per key -> slowed map -> exactly-once
 * file sink, parallelism 2 (the generator's always, the others' unless {@code -p} says otherwise):
 * the keyed exchange crosses task managers, and the slowed map (chained with the count and the
 * sink) keeps records queued in front of the count. Each output line is {@code "<id> <key>
 * <count>"}, the count being how many ids of that key the job had counted with this one. Arguments:
 * output directory, record count, records per second per source subtask, microseconds the slowed
 * map takes a record, and optionally the in-flight data target in milliseconds (else the default).
 */
public final class SlowKeyedCountJob {
  public static final int KEYS = 16;

  private SlowKeyedCountJob() {}

  /** Counts the ids of each key in keyed state. */
  static final class RunningCount extends KeyedProcessFunction<Long, Long, String> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public void processElement(Long id, Context<Long> context, Collector<String> out) {
      long counted = count.value() == null ? 1 : count.value() + 1;
      count.update(counted);
      out.collect(id + " " + context.currentKey() + " " + counted);
    }
  }

  public static void main(String[] args) throws Exception {
    Path output = Path.of(args[0]);
    long count = Long.parseLong(args[1]);
    long rate = Long.parseLong(args[2]);
    long microsPerRecord = Long.parseLong(args[3]);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(300));
    if (args.length > 4) {
      env.config().inFlightDataTarget(Duration.ofMillis(Long.parseLong(args[4])));
    }
    env.addSource(new GeneratorSource<>(count, index -> index, rate))
        .name("Ids")
        .uid("ids")
        // The generator's subtasks split the ids by index: a rescale restores them as they were.
        .setParallelism(2)
        .keyBy(id -> id % KEYS)
        .process(new RunningCount())
        .name("Count")
        .uid("count")
        .map(new SlowedMap<>(microsPerRecord))
        .name("Slowed")
        .uid("slowed")
        .addSink(FileSink.<String>forDirectory(output).build())
        .name("Files")
        .uid("files");
    env.execute("slow-keyed-count");
  }
}
