package io.weir.cli.bench;

import io.weir.cli.error.UserError;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.lab.LabUserError;
import io.weir.lab.bench.JobJvmOptions;
import io.weir.lab.bench.NexmarkBench;
import io.weir.lab.bench.NexmarkBenchTable;
import io.weir.lab.bench.NexmarkEngine;
import io.weir.nexmark.oracle.ResultRows;
import io.weir.nexmark.queries.NexmarkQueries;
import io.weir.nexmark.queries.NexmarkQuery;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code weir bench --nexmark}: the queries on Weir and on Flink, on events generated once into the
 * embedded broker; for each query the two engines alternate, {@code repeat} times, and the table
 * shows the medians.
 */
final class NexmarkBenchRun {
  /** Up to this many events, each run's rows are compared with the query's SQL (in memory). */
  static final long SQL_CHECK_EVENTS = 200_000;

  private final NexmarkBenchOptions options;
  private final int partitions;
  private final int parallelism;
  private final int repeat;
  private final Path directory;
  private final JobJvmOptions jvmOptions;
  private final Consumer<String> progress;

  NexmarkBenchRun(
      NexmarkBenchOptions options,
      int partitions,
      int parallelism,
      int repeat,
      Path directory,
      JobJvmOptions jvmOptions,
      Consumer<String> progress) {
    this.options = options;
    this.partitions = partitions;
    this.parallelism = parallelism;
    this.repeat = repeat;
    this.directory = directory;
    this.jvmOptions = jvmOptions;
    this.progress = progress;
  }

  Map<String, Object> run() throws Exception {
    if (options.events < 1) {
      throw new UserError("--events must be at least 1, got " + options.events);
    }
    if (options.pacedRate != null && options.pacedRate < 1) {
      throw new UserError("--paced-rate must be at least 1 event/s, got " + options.pacedRate);
    }
    if (options.pacedRate != null
        && options.events <= NexmarkBench.unmeasuredPacedEvents(partitions, options.pacedRate)) {
      // The first event of each partition and the pace's last seconds are not measured.
      throw new UserError(
          "--events must exceed "
              + NexmarkBench.unmeasuredPacedEvents(partitions, options.pacedRate)
              + " with --paced-rate "
              + options.pacedRate
              + " and "
              + partitions
              + " partitions: the first event of each partition and the last seconds of the pace"
              + " are not measured");
    }
    if (options.pacedRate != null && options.events > Integer.MAX_VALUE) {
      throw new UserError("--events must be at most " + Integer.MAX_VALUE + " with --paced-rate");
    }
    if (!List.of("heap", "rocksdb").contains(options.stateBackend)) {
      throw new UserError("--state-backend must be heap or rocksdb, got " + options.stateBackend);
    }
    List<NexmarkQuery<?>> queries = queries();
    String flinkClassPath = flinkClassPath();
    Directories.deleteRecursively(directory);
    Files.createDirectories(directory);
    progress.accept("starting the embedded Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker =
        KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory.resolve("kafka")))) {
      NexmarkBench bench =
          new NexmarkBench(
              new NexmarkBench.Settings(
                  options.events,
                  partitions,
                  parallelism,
                  options.stateBackend,
                  directory,
                  flinkClassPath,
                  options.events <= SQL_CHECK_EVENTS && options.pacedRate == null,
                  jvmOptions,
                  options.pacedRatePerSecond()),
              broker.bootstrapServers(),
              progress);
      bench.load();
      NexmarkBenchTable table =
          new NexmarkBenchTable(
              options.events,
              parallelism,
              options.stateBackend,
              repeat,
              options.pacedRatePerSecond());
      for (NexmarkQuery<?> query : queries) {
        runQuery(bench, query, table);
      }
      table.print(System.out);
      return table.json();
    }
  }

  private void runQuery(NexmarkBench bench, NexmarkQuery<?> query, NexmarkBenchTable table)
      throws Exception {
    table.query(query.name());
    ResultRows expected = bench.expected(query);
    boolean flinkRunsIt = true;
    for (int repetition = 1; repetition <= repeat; repetition++) {
      // Alternated, and in turn first, so that a slower phase of a shared machine does not fall
      // on one engine.
      List<NexmarkEngine> order = new ArrayList<>(List.of(NexmarkEngine.values()));
      if (repetition % 2 == 0) {
        java.util.Collections.reverse(order);
      }
      for (NexmarkEngine engine : order) {
        if (engine == NexmarkEngine.FLINK && !flinkRunsIt) {
          continue;
        }
        try {
          Optional<NexmarkBench.Run> run = bench.run(query, engine, repetition, expected);
          if (run.isPresent()) {
            table.add(query.name(), run.get());
          } else {
            progress.accept(query.name() + " is not written for Flink: Weir runs it alone");
            flinkRunsIt = false;
          }
        } catch (LabUserError e) {
          // One failed run must not hide the figures of the others.
          progress.accept(query.name() + " on " + engine.key() + " failed: " + e.getMessage());
        }
      }
    }
  }

  private List<NexmarkQuery<?>> queries() {
    if (options.queries == null || options.queries.isEmpty()) {
      return NexmarkQueries.all();
    }
    List<NexmarkQuery<?>> queries = new ArrayList<>();
    for (String name : options.queries) {
      queries.add(
          NexmarkQueries.named(name.trim())
              .orElseThrow(
                  () ->
                      new UserError(
                          "--queries: "
                              + name
                              + " is not a query Weir runs; these are: "
                              + NexmarkQueries.names())));
    }
    return queries;
  }

  /**
   * The Flink process's class path: the bench module's classes, the Kafka clients its connector
   * needs (in {@code flink-lib}), both beside the file, and the jars the file lists.
   */
  private String flinkClassPath() throws IOException {
    Path file =
        options.flinkClassPathFile != null ? options.flinkClassPathFile : defaultClassPathFile();
    if (!Files.isRegularFile(file)) {
      throw new UserError(
          "The Flink class path file "
              + file
              + " is missing: build the weir-nexmark-flink module (mvn package) or give"
              + " --flink-classpath");
    }
    Path target = file.toAbsolutePath().getParent();
    return String.join(
        File.pathSeparator,
        target.resolve("classes").toString(),
        target.resolve("flink-lib").resolve("*").toString(),
        Files.readString(file).trim());
  }

  /** Where the reactor build writes it: beside weir-cli's own build output. */
  private static Path defaultClassPathFile() {
    try {
      // weir-cli/target/weir-cli.jar or weir-cli/target/classes: three levels below the root.
      Path location =
          Path.of(
              NexmarkBenchRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return location
          .getParent()
          .getParent()
          .getParent()
          .resolve("weir-nexmark-flink")
          .resolve("target")
          .resolve("flink-classpath.txt");
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Cannot locate Weir's own build output", e);
    }
  }
}
