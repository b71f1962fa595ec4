package io.weir.examples;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Ids through a keyed exchange into an exactly-once file sink: {@code generator -> keyBy -> map ->
 * FileSink}, parallelism 2. On a cluster the keyed exchange crosses task managers; each id appears
 * once in the committed part files whatever is killed.
 *
 * <p>Arguments: output directory, number of ids (default 100000), ids per second per subtask
 * (default 2000).
 */
public final class CountIdsJob {
  private CountIdsJob() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: CountIdsJob OUTPUT_DIR [COUNT] [RATE]");
    }
    Path output = Path.of(args[0]).toAbsolutePath();
    long count = args.length > 1 ? Long.parseLong(args[1]) : 100_000;
    long rate = args.length > 2 ? Long.parseLong(args[2]) : 2_000;
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(500));
    env.addSource(new GeneratorSource<>(count, index -> index, rate))
        .name("Ids")
        .uid("ids")
        .keyBy(id -> id % 16)
        .map(id -> "id-" + id)
        .uid("label")
        .addSink(FileSink.<String>forDirectory(output).build())
        .name("Files")
        .uid("files");
    env.execute("count-ids");
  }
}
