package io.weir.cli.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import picocli.CommandLine.Option;

/** The options of {@code weir bench --nexmark}. */
final class NexmarkBenchOptions {
  @Option(
      names = "--nexmark",
      description =
          "Run Nexmark queries on Weir and on Flink, each in a fresh JVM, alternated, on the same"
              + " events in the embedded broker.")
  boolean enabled;

  @Option(
      names = "--queries",
      split = ",",
      paramLabel = "QUERY",
      description = "With --nexmark: the queries, e.g. q0,q1 (default: every query Weir runs).")
  List<String> queries;

  @Option(
      names = "--events",
      description = "With --nexmark: events to generate (default: ${DEFAULT-VALUE}).")
  long events = 1_000_000;

  @Option(
      names = "--state-backend",
      paramLabel = "NAME",
      description =
          "With --nexmark: heap or rocksdb, for both engines (default: ${DEFAULT-VALUE}).")
  String stateBackend = "heap";

  @Option(
      names = "--paced-rate",
      paramLabel = "EVENTS_PER_S",
      description =
          "With --nexmark: start each run's job on an empty topic and write the events at this rate"
              + " while it runs, to measure end-to-end latency (p50, p99) from each event's send"
              + " time to the commit of its offset; runs are not compared with SQL (default: load"
              + " the events before the runs and measure throughput).")
  Long pacedRate;

  @Option(
      names = "--flink-classpath",
      paramLabel = "FILE",
      description =
          "With --nexmark: the file listing the Flink process's class path (default: the one the"
              + " build of weir-nexmark-flink writes, target/flink-classpath.txt).")
  Path flinkClassPathFile;

  /** The paced rate, or empty when the bench measures throughput. */
  OptionalLong pacedRatePerSecond() {
    return pacedRate == null ? OptionalLong.empty() : OptionalLong.of(pacedRate);
  }
}
