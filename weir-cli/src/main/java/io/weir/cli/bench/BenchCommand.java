package io.weir.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.weir.cli.error.UserError;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.lab.LabUserError;
import io.weir.lab.bench.BackpressureBench;
import io.weir.lab.bench.BackpressureReport;
import io.weir.lab.bench.BenchTable;
import io.weir.lab.bench.InMemoryBench;
import io.weir.lab.bench.JobJvmOptions;
import io.weir.lab.bench.KafkaBench;
import io.weir.lab.bench.Pipeline;
import io.weir.lab.bench.StateBench;
import io.weir.lab.bench.StateBenchReport;
import io.weir.lab.bench.WebOverheadBench;
import io.weir.lab.process.LabCluster;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir bench}: throughput of the seed job in memory ({@code --in-memory}), or on an embedded
 * broker compared with a plain transactional consume-transform-produce loop, with latency, memory
 * and the exactly-once verdict of each run.
 */
@Command(
    name = "bench",
    description =
        "Measure the seed job: in memory, or on Kafka against a plain transactional loop; or"
            + " Nexmark queries on Weir and on Flink (--nexmark).")
public final class BenchCommand implements Callable<Integer> {
  @Option(
      names = "--backpressure",
      description =
          "Aligned, unaligned, and aligned checkpoints with adaptive in-flight data on the"
              + " generator, input offered at 3x what a slowed map takes: checkpoint durations,"
              + " bytes in flight, lost and duplicated through a mid-run failure, and throughput"
              + " without backpressure.")
  boolean backpressure;

  @Option(
      names = "--record-delay-micros",
      description =
          "With --backpressure: what the slowed map takes a record (default: ${DEFAULT-VALUE}).")
  long recordDelayMicros = 500;

  @Option(
      names = "--unloaded-records",
      description =
          "With --backpressure: records of each run without backpressure (default: ${DEFAULT-VALUE}).")
  long unloadedRecords = 1_000_000;

  @Mixin NexmarkBenchOptions nexmark;

  @Option(names = "--in-memory", description = "Run on the generator, no broker.")
  boolean inMemory;

  @Option(
      names = "--state",
      description =
          "Measure keyed state: heap vs RocksDB records/s, and full vs incremental RocksDB"
              + " checkpoints of a large state.")
  boolean state;

  @Option(
      names = "--state-size",
      paramLabel = "MB",
      description =
          "With --state: the RocksDB state to checkpoint, in MB (default: ${DEFAULT-VALUE}).")
  long stateMegabytes = 1024;

  @Option(
      names = "--state-change",
      paramLabel = "PERCENT",
      description =
          "With --state: the share of keys changed between checkpoints (default: ${DEFAULT-VALUE}).")
  double stateChangePercent = 1;

  @Option(
      names = "--records",
      description = "Records (default: 5,000,000 in memory, else 1,000,000).")
  Long records;

  @Option(
      names = "--partitions",
      description = "Partitions of the topics (default: ${DEFAULT-VALUE}).")
  int partitions = 4;

  @Option(
      names = "--parallelism",
      description = "Parallelism of the Weir jobs (default: ${DEFAULT-VALUE}).")
  int parallelism = 2;

  @Option(
      names = "--latency-records",
      description = "Paced records per latency run (default: ${DEFAULT-VALUE}).")
  int latencyRecords = 20_000;

  @Option(
      names = "--latency-rate",
      description = "Records/s of the latency runs (default: ${DEFAULT-VALUE}).")
  long latencyRate = 5_000;

  @Option(
      names = "--recovery",
      description = "Also kill the exactly-once job mid-run and time its recovery.")
  boolean recovery;

  @Option(
      names = "--session",
      description =
          "Also run the exactly-once job submitted to a session cluster (a job manager and a task"
              + " manager started once and warmed by one job, as a cluster in use is): what its"
              + " client waits for, from the client's launch.")
  boolean session;

  @Option(
      names = "--repeat",
      description =
          "Runs of each pipeline on Kafka, alternated, each in a fresh JVM (default:"
              + " ${DEFAULT-VALUE}).")
  int repeat = 3;

  @Option(names = "--dir", description = "Working directory (default: ${DEFAULT-VALUE}).")
  Path directory = Path.of(".weir", "bench");

  @Option(names = "--json", description = "Also write the results to this file as JSON.")
  Path json;

  @Option(
      names = "--no-web",
      description =
          "Run the Weir jobs without their dashboard, REST API and metrics (to measure their cost).")
  boolean noWeb;

  @Option(
      names = "--web-overhead",
      description =
          "Measure what the dashboard, REST API and metrics cost: the exactly-once pipeline --repeat"
              + " times with them and --repeat times without, alternated; medians, overhead in %%"
              + " and its bootstrap interval. Run it on a quiet machine.")
  boolean webOverhead;

  @Option(
      names = "--jvm-option",
      paramLabel = "OPTION",
      description =
          "Add this option to the command line of every measured process (repeatable), e.g."
              + " --jvm-option=-Xmx2g.")
  List<String> jvmOptions = new ArrayList<>();

  @Option(
      names = "--profile",
      paramLabel = "DIR",
      description =
          "Record each measured process with JDK Flight Recorder into DIR/<run>.jfr (read it with"
              + " `jfr summary` or `jfr print --events jdk.ExecutionSample`).")
  Path profileDirectory;

  @Override
  public Integer call() throws Exception {
    long count = records != null ? records : inMemory ? 5_000_000 : 1_000_000;
    if (count < 1 || count > Integer.MAX_VALUE) {
      throw new UserError("--records must be 1.." + Integer.MAX_VALUE + ", got " + count);
    }
    if (partitions < 1 || parallelism < 1) {
      throw new UserError("--partitions and --parallelism must be at least 1");
    }
    if (repeat < 1) {
      throw new UserError("--repeat must be at least 1, got " + repeat);
    }
    if (state && inMemory) {
      throw new UserError("--state and --in-memory are two benchmarks: give one");
    }
    if (webOverhead && (state || inMemory || recovery || noWeb)) {
      throw new UserError(
          "--web-overhead runs on Kafka with and without the web server by itself: give it"
              + " without --state, --in-memory, --recovery and --no-web");
    }
    if (session && (state || inMemory || webOverhead)) {
      throw new UserError(
          "--session adds a run to the Kafka comparison: give it without --state, --in-memory and"
              + " --web-overhead");
    }
    if ((profileDirectory != null || !jvmOptions.isEmpty()) && (state || inMemory || webOverhead)) {
      throw new UserError(
          "--profile and --jvm-option apply to the processes of the Kafka and Nexmark comparisons:"
              + " give them without --state, --in-memory and --web-overhead");
    }
    if (backpressure && (state || inMemory || webOverhead || session || recovery)) {
      throw new UserError(
          "--backpressure is a benchmark of its own: give it without --state, --in-memory,"
              + " --web-overhead, --session and --recovery");
    }
    if (backpressure && (recordDelayMicros < 1 || unloadedRecords < 10)) {
      throw new UserError(
          "--record-delay-micros must be at least 1 and --unloaded-records at least 10");
    }
    if (nexmark.enabled && backpressure) {
      throw new UserError("--nexmark and --backpressure are benchmarks of their own: give one");
    }
    if (nexmark.enabled && (state || inMemory || webOverhead || session || recovery)) {
      throw new UserError(
          "--nexmark is a benchmark of its own: give it without --state, --in-memory,"
              + " --web-overhead, --session and --recovery");
    }
    Map<String, Object> report =
        backpressure
            ? backpressure(records != null ? count : 30_000)
            : nexmark.enabled
                ? new NexmarkBenchRun(
                        nexmark,
                        partitions,
                        parallelism,
                        repeat,
                        directory,
                        jobJvmOptions(),
                        BenchCommand::say)
                    .run()
                : state
                    ? state(records != null ? count : 2_000_000)
                    : inMemory ? inMemory(count) : onKafka(count);
    if (json != null) {
      writeJson(report);
    }
    return 0;
  }

  private Map<String, Object> backpressure(long count) throws Exception {
    Path benchDirectory = directory.resolve("backpressure");
    try {
      List<BackpressureBench.Result> results =
          new BackpressureBench(
                  new BackpressureBench.Settings(
                      count, recordDelayMicros, unloadedRecords, benchDirectory),
                  BenchCommand::say)
              .run();
      return BackpressureReport.print(results, System.out);
    } finally {
      Directories.deleteRecursively(benchDirectory);
    }
  }

  private Map<String, Object> inMemory(long count) throws Exception {
    InMemoryBench.Result result = InMemoryBench.run(count);
    System.out.printf(
        "in memory, seed job (generator -> keyBy -> map -> discarding sink), parallelism %d, %,d"
            + " records%n",
        InMemoryBench.PARALLELISM, count);
    System.out.printf("  checkpoints off:      %,12.0f records/s%n", result.recordsPerSecond());
    System.out.printf(
        "  checkpoints every 1s: %,12.0f records/s, %d checkpoints, mean %.1f ms%n",
        result.checkpointedRecordsPerSecond(), result.checkpoints(), result.meanCheckpointMillis());
    Map<String, Object> plain = new LinkedHashMap<>();
    plain.put("records", count);
    plain.put("records_per_s", Math.round(result.recordsPerSecond()));
    Map<String, Object> checkpointed = new LinkedHashMap<>();
    checkpointed.put("records_per_s", Math.round(result.checkpointedRecordsPerSecond()));
    checkpointed.put("mean_checkpoint_ms", BenchTable.round(result.meanCheckpointMillis()));
    checkpointed.put("checkpoints", result.checkpoints());
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("in_memory", plain);
    report.put("in_memory_checkpointed", checkpointed);
    return report;
  }

  private Map<String, Object> state(long count) throws Exception {
    if (stateMegabytes < 1 || stateChangePercent <= 0 || stateChangePercent > 100) {
      throw new UserError("--state-size must be at least 1 and --state-change in (0, 100]");
    }
    Path stateDirectory = directory.resolve("state");
    Directories.deleteRecursively(stateDirectory);
    try {
      StateBench.Result result =
          new StateBench(
                  new StateBench.Settings(
                      count,
                      100_000,
                      stateMegabytes << 20,
                      stateChangePercent / 100,
                      stateDirectory),
                  key -> {})
              .run();
      return StateBenchReport.print(result, stateChangePercent, System.out);
    } finally {
      Directories.deleteRecursively(stateDirectory);
    }
  }

  private Map<String, Object> onKafka(long count) throws Exception {
    Directories.deleteRecursively(directory);
    Files.createDirectories(directory);
    JobJvmOptions jobJvmOptions = jobJvmOptions();
    say("starting the embedded Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker =
        KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory.resolve("kafka")))) {
      KafkaBench bench =
          new KafkaBench(
              new KafkaBench.Settings(
                  count,
                  partitions,
                  parallelism,
                  latencyRecords,
                  latencyRate,
                  directory,
                  !noWeb,
                  jobJvmOptions),
              broker.bootstrapServers(),
              BenchCommand::say);
      bench.load();
      if (webOverhead) {
        return webOverhead(bench, broker.bootstrapServers(), count);
      }
      try (LabCluster cluster = session ? bench.startSession() : null) {
        return compare(bench, count);
      }
    }
  }

  private Map<String, Object> compare(KafkaBench bench, long count) throws Exception {
    BenchTable table = new BenchTable(count, partitions, parallelism, repeat);
    // Alternated, so that a slower phase of a shared machine does not fall on one pipeline.
    for (int repetition = 1; repetition <= repeat; repetition++) {
      for (Pipeline pipeline : bench.pipelines()) {
        try {
          table.add(bench.run(pipeline, repetition, repetition == 1 && pipeline.measuresLatency()));
        } catch (LabUserError e) {
          // One failed run must not hide the figures of the others.
          say("run " + pipeline.key() + "-" + repetition + " failed: " + e.getMessage());
          table.failed(pipeline, e.getMessage());
        }
      }
    }
    if (recovery) {
      try {
        table.recovery(bench.recover());
      } catch (LabUserError e) {
        say("recovery run failed: " + e.getMessage());
      }
    }
    table.print(System.out);
    return table.json();
  }

  private Map<String, Object> webOverhead(KafkaBench withWeb, String bootstrap, long count)
      throws Exception {
    KafkaBench withoutWeb =
        new KafkaBench(
            new KafkaBench.Settings(
                count, partitions, parallelism, latencyRecords, latencyRate, directory, false),
            bootstrap,
            BenchCommand::say);
    WebOverheadBench.Estimates estimates =
        new WebOverheadBench(withWeb, withoutWeb, count, BenchCommand::say).run(repeat);
    WebOverheadBench.print(estimates, System.out);
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("records", count);
    report.put("partitions", partitions);
    report.put("parallelism", parallelism);
    report.put("web_overhead", WebOverheadBench.json(estimates));
    return report;
  }

  private JobJvmOptions jobJvmOptions() {
    if (profileDirectory == null) {
      return new JobJvmOptions(jvmOptions, null);
    }
    try {
      Files.createDirectories(profileDirectory);
    } catch (IOException e) {
      throw new UserError(
          "Cannot create the --profile directory " + profileDirectory + ": " + e.getMessage(), e);
    }
    return new JobJvmOptions(jvmOptions, profileDirectory);
  }

  private static void say(String line) {
    System.out.println("bench: " + line);
  }

  private void writeJson(Map<String, Object> report) {
    try {
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .writeValue(json.toFile(), report);
    } catch (IOException e) {
      throw new UserError("Cannot write the JSON report " + json + ": " + e.getMessage(), e);
    }
  }
}
