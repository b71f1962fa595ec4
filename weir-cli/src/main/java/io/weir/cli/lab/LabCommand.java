package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.devservers.process.DevServerException;
import io.weir.lab.CellTopics;
import io.weir.lab.JsonReport;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.crash.CellResult;
import io.weir.lab.crash.LabJson;
import io.weir.lab.crash.MatrixReport;
import io.weir.lab.crash.MatrixRun;
import io.weir.lab.nemesis.FaultKind;
import io.weir.lab.nemesis.NemesisDeployment;
import io.weir.lab.nemesis.NemesisJob;
import io.weir.lab.nemesis.NemesisLab;
import io.weir.lab.nemesis.NemesisReport;
import io.weir.lab.nemesis.NemesisSink;
import io.weir.lab.nemesis.NetworkSlot;
import io.weir.lab.operations.Deployment;
import io.weir.lab.operations.OperationCellResult;
import io.weir.lab.operations.OperationJob;
import io.weir.lab.operations.OperationsJson;
import io.weir.lab.operations.OperationsMatrix;
import io.weir.lab.operations.OperationsTable;
import io.weir.lab.overload.OverloadSettings;
import io.weir.lab.process.JobJarFile;
import io.weir.lab.process.LabJob;
import io.weir.lab.soak.JobManagerKillSoak;
import io.weir.lab.soak.Soak;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir lab}: the seed's failure experiment, measured. Runs the matrix (commit order x crash
 * point x recovery) and prints it in the seed's layout, or with {@code --soak} kills the job and
 * the broker at random for a while and verifies exactly-once at the end.
 */
@Command(
    name = "lab",
    description = {
      "Crash a job at each point of the checkpoint commit protocol, restart it from its checkpoint"
          + " or from its group's offsets, and measure loss and duplicates (the seed's tables).",
      "With --soak: kill the job (SIGKILL, failpoint halts) and the broker at random for a while,"
          + " then verify that every input record was output exactly once.",
      "With --overload: feed the job at three times what it can process, then below it, and check"
          + " that memory, checkpoints, transactions and lag stay bounded, exactly once.",
      "With --nemesis: three brokers and the job on hosts of their own (network namespaces; needs"
          + " root), partitioned, paused, killed and isolated at random, then checked for lost,"
          + " duplicated and aborted reads and for stalls (docs/nemesis.md)."
    },
    footer = {
      "",
      "Your own job (--job CLASS, or --job JAR [-c CLASS]): the lab runs it as",
      "  weir run --checkpoint-dir DIR --notify-order REVERSE|FORWARD [-s PATH | --from-group-offsets]"
          + " [-c CLASS] CLASS|JAR --bootstrap HOST:PORT --input-topic T --output-topic U --group G [JOB ARGS]",
      "so its main must accept those four options, read T with a Kafka source in group G, write U"
          + " with an exactly-once Kafka sink, and enable checkpointing (about every second).",
      "The lab writes records 'w<k>,<f>,<id>' to T; each output record's value must end with"
          + " ',<id>' of the input record it came from, one output record per input record.",
      "Commit order is forced with failpoints: sink first pauses source.offsets-commit.before,"
          + " source first pauses sink.commit.before ("
          + LabJob.ORDER_PAUSE_MILLIS
          + " ms).",
      "Give job arguments that start with '-' after '--'."
    })
public final class LabCommand implements Callable<Integer> {
  @Option(names = "--soak", description = "Kill the job and the broker at random instead.")
  boolean soak;

  @Mixin OverloadOptions overload = new OverloadOptions();

  @Option(
      names = "--nemesis",
      description =
          "Run the seed job on a three-broker cluster, each process on a network namespace of its"
              + " own, and inject faults for --minutes; then check the committed output.")
  boolean nemesis;

  @Option(
      names = "--faults",
      split = ",",
      paramLabel = "KIND",
      description =
          "With --nemesis: the fault kinds to inject, of partition, pause, kill, broker, split, disk"
              + " and, with --ha, zombie, leader (default: all that apply).")
  List<String> faults = new ArrayList<>();

  @Option(
      names = "--nemesis-cleanup",
      description = "Remove the network namespaces, links and processes a nemesis lab left behind.")
  boolean nemesisCleanup;

  @Option(
      names = "--nemesis-network",
      paramLabel = "SLOT",
      description =
          "With --nemesis or --nemesis-cleanup: the lab network to use, 0 to 9 (bridge weirnemN,"
              + " addresses 10.77.N.0/24), so labs in different slots run side by side (default:"
              + " ${DEFAULT-VALUE}).")
  int nemesisNetwork = 0;

  @Option(
      names = "--operations",
      description =
          "Run the operations matrix instead: rescale, savepoint stop and cancel, retention while"
              + " down, start at latest, poison records; with --sink postgres: rescale and savepoint"
              + " stop of the running totals into PostgreSQL; with --soak: random rescales and"
              + " savepoint stops among the kills.")
  boolean operations;

  @Option(
      names = "--cells",
      split = ",",
      paramLabel = "OPERATION[/JOB[/DEPLOYMENT]]",
      description = "With --operations: run only these cells, e.g. rescale-1-2/seed/cluster.")
  Set<String> cells = new LinkedHashSet<>();

  @Option(
      names = "--deployments",
      split = ",",
      paramLabel = "local|cluster",
      description =
          "With --operations: run each cell on these, in this order: local (weir run, a process of"
              + " its own), cluster (a job manager and a task manager of the cell's own; savepoint"
              + " cells run only there) (default: ${DEFAULT-VALUE}).")
  List<String> deployments = new ArrayList<>(List.of("local", "cluster"));

  @Option(
      names = "--minutes",
      description = "How long the soak or the nemesis runs (default: ${DEFAULT-VALUE}).")
  double minutes = 5;

  @Option(
      names = "--bootstrap",
      paramLabel = "HOST:PORT",
      description =
          "With --operations: run the cells on this running broker instead of starting one.")
  String bootstrap;

  @Option(
      names = "--reuse-broker",
      description = "Run every cell on one broker, with fresh topics and group per cell.")
  boolean reuseBroker;

  @Option(
      names = "--dir",
      description = "Working directory, emptied first (default: ${DEFAULT-VALUE}).")
  Path directory = Path.of(".weir", "lab");

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON.")
  Path json;

  @Option(names = "--rate", description = "Input records per second (default: ${DEFAULT-VALUE}).")
  long rate = 500;

  @Option(
      names = "--records",
      description = "Records sent after each restart (default: ${DEFAULT-VALUE}).")
  long records = 1000;

  @Option(
      names = "--crash-at",
      description = "Halt on this pass of the crash point (default: ${DEFAULT-VALUE}).")
  int crashHit = 3;

  @Option(
      names = "--timeout",
      description = "Seconds each wait may take (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds = 90;

  @Option(
      names = "--ha",
      description =
          "With --soak: run the job on a highly available cluster of its own (ZooKeeper, two job"
              + " managers, two task managers) and lose the leading job manager at random, killed"
              + " (kill -9) or frozen (SIGSTOP, then SIGCONT). With --nemesis: run the job on"
              + " ZooKeeper, two job managers and three task managers, each on a host of its own.")
  boolean highAvailability;

  @Option(names = "--random-seed", description = "Seed of the soak's random kills.")
  Long randomSeed;

  @Option(
      names = "--job",
      paramLabel = "CLASS|JAR",
      description =
          "Your job: its main class, or its jar (as weir run takes it). With --nemesis: seed,"
              + " running-count or window-join (default: seed).")
  String jobClass;

  @Option(
      names = {"-c", "--class"},
      paramLabel = "CLASS",
      description = "With a jar: the job class to run (default: the jar's Main-Class).")
  String jarJobClass;

  @Option(names = "--input-topic", description = "Input topic (default: ${DEFAULT-VALUE}).")
  String inputTopic = "foo";

  @Option(names = "--output-topic", description = "Output topic (default: ${DEFAULT-VALUE}).")
  String outputTopic = "bar";

  @Option(
      names = "--sink",
      description =
          "kafka: the seed job into a topic; postgres: a running aggregate per word into an"
              + " embedded PostgreSQL server, exactly once (default: ${DEFAULT-VALUE}).")
  LabSink sink = LabSink.KAFKA;

  /** Where the lab's job writes. */
  enum LabSink {
    KAFKA,
    POSTGRES
  }

  @Parameters(paramLabel = "JOB ARGS", description = "More arguments for your job.")
  List<String> jobArguments = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    LabSettings settings = settings();
    if (nemesisCleanup) {
      List<String> removed = NemesisLab.removeLeftovers(networkSlot());
      System.out.println(
          removed.isEmpty()
              ? "nemesis: nothing to remove"
              : "nemesis: removed " + String.join(", ", removed));
      return 0;
    }
    if (nemesis) {
      return nemesis(settings);
    }
    if (overload.overload) {
      if (soak || operations || highAvailability || jobClass != null || sink != LabSink.KAFKA) {
        throw new UserError(
            "--overload runs the seed job into Kafka: drop --soak, --operations, --ha, --job,"
                + " --sink");
      }
      OverloadSettings overloadSettings =
          overload.settings(minutes, Duration.ofSeconds(timeoutSeconds));
      recreate(directory);
      return overload.run(
          overloadSettings, directory, CellTopics.of(inputTopic, outputTopic), json);
    }
    if (overload.strayOption()) {
      throw new UserError("--unaligned, --kill and --record-delay-micros go with --overload");
    }
    if (!faults.isEmpty()) {
      throw new UserError("--faults chooses the faults of --nemesis: add --nemesis");
    }
    if (highAvailability && !soak) {
      throw new UserError("--ha kills job managers in the soak: add --soak");
    }
    if (operations && !soak) {
      return operations(settings);
    }
    recreate(directory);
    if (sink == LabSink.POSTGRES) {
      return postgresMatrix(settings);
    }
    LabJob job = job();
    LabProgress progress = new LabProgress(System.out, "lab");
    CellTopics topics = CellTopics.of(inputTopic, outputTopic);
    progress.line((soak ? "soak of " : "matrix of ") + job.describe() + " in " + directory);
    return soak ? soak(job, settings, progress, topics) : matrix(job, settings, progress, topics);
  }

  private int matrix(LabJob job, LabSettings settings, LabProgress progress, CellTopics topics)
      throws Exception {
    List<CellResult> results =
        new MatrixRun(job, settings, reuseBroker, progress).run(directory, topics);
    MatrixReport.print(results, System.out);
    if (json != null) {
      LabJson.write(json, results);
    }
    boolean allMeasured = results.stream().allMatch(result -> result.outcome().failure() == null);
    return allMeasured ? 0 : 1;
  }

  /** The matrix with the PostgreSQL sink, against a server of its own for all cells. */
  private int postgresMatrix(LabSettings settings) throws Exception {
    if (soak || jobClass != null) {
      throw new UserError("--sink postgres runs the matrix of its own job: drop --soak and --job");
    }
    LabProgress progress = new LabProgress(System.out, "lab");
    Path serverDirectory = directory.resolve("postgres");
    progress.line("starting a PostgreSQL server in " + serverDirectory);
    try (PostgresServer server =
        PostgresServer.start(PostgresServerConfig.inDirectory(serverDirectory).withPort(0))) {
      LabJob job = LabJob.postgres(server.jdbcUrl());
      progress.line("matrix of " + job.describe() + " in " + directory);
      return matrix(job, settings, progress, CellTopics.of(inputTopic, outputTopic));
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  private int operations(LabSettings settings) throws Exception {
    if (jobClass != null) {
      throw new UserError("--operations runs the seed job and the running count; drop --job");
    }
    recreate(directory);
    LabProgress progress = new LabProgress(System.out, "lab");
    if (sink == LabSink.KAFKA) {
      progress.line("operations matrix in " + directory);
      return operations(settings, progress, OperationJob.KAFKA_JOBS, null);
    }
    Path serverDirectory = directory.resolve("postgres");
    progress.line("starting a PostgreSQL server in " + serverDirectory);
    try (PostgresServer server =
        PostgresServer.start(PostgresServerConfig.inDirectory(serverDirectory).withPort(0))) {
      progress.line("operations matrix of the running totals into PostgreSQL in " + directory);
      return operations(
          settings, progress, List.of(OperationJob.POSTGRES_TOTALS), server.jdbcUrl());
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  private int operations(
      LabSettings settings, LabProgress progress, List<OperationJob> jobs, String jdbcUrl)
      throws IOException {
    OperationsMatrix matrix =
        new OperationsMatrix(settings, progress, cells, deployments(), jobs, jdbcUrl);
    List<OperationCellResult> results =
        bootstrap == null ? matrix.run(directory) : matrix.run(directory, bootstrap);
    OperationsTable.print(results, System.out);
    if (json != null) {
      OperationsJson.write(json, results);
    }
    return results.stream().allMatch(OperationCellResult::passed) ? 0 : 1;
  }

  private List<Deployment> deployments() {
    List<Deployment> chosen = new ArrayList<>();
    for (String key : new LinkedHashSet<>(deployments)) {
      try {
        chosen.add(Deployment.ofKey(key));
      } catch (IllegalArgumentException e) {
        throw new UserError("--deployments takes local and cluster, got '" + key + "'");
      }
    }
    return chosen;
  }

  private int soak(LabJob job, LabSettings settings, LabProgress progress, CellTopics topics)
      throws Exception {
    long seed = randomSeed != null ? randomSeed : System.nanoTime();
    progress.line("random seed " + seed + " (--random-seed to repeat)");
    if (highAvailability) {
      return jobManagerKillSoak(job, settings, progress, topics, seed);
    }
    Soak.Result result =
        new Soak(job, settings, progress, seed, operations)
            .run(directory, topics, Duration.ofMillis((long) (minutes * 60_000)));
    System.out.println(result.line());
    if (json != null) {
      JsonReport.write(json, result.report());
    }
    return result.verdict().exactlyOnce() ? 0 : 1;
  }

  private int jobManagerKillSoak(
      LabJob job, LabSettings settings, LabProgress progress, CellTopics topics, long seed)
      throws Exception {
    JobManagerKillSoak.Result result =
        new JobManagerKillSoak(job, settings, progress, seed)
            .run(directory, topics, Duration.ofMillis((long) (minutes * 60_000)));
    System.out.println(result.line());
    if (json != null) {
      JsonReport.write(json, result.report());
    }
    return result.verdict().exactlyOnce() ? 0 : 1;
  }

  private NetworkSlot networkSlot() {
    if (nemesisNetwork < 0 || nemesisNetwork >= NetworkSlot.COUNT) {
      throw new UserError(
          "--nemesis-network is 0 to " + (NetworkSlot.COUNT - 1) + ", not " + nemesisNetwork);
    }
    return new NetworkSlot(nemesisNetwork);
  }

  private int nemesis(LabSettings settings) throws Exception {
    if (soak || operations) {
      throw new UserError("--nemesis runs its own jobs: drop --soak, --operations");
    }
    NemesisJob job = jobClass == null ? NemesisJob.SEED : NemesisJob.parse(jobClass);
    NemesisSink nemesisSink = sink == LabSink.POSTGRES ? NemesisSink.POSTGRES : NemesisSink.KAFKA;
    NemesisDeployment deployment =
        highAvailability ? NemesisDeployment.HA_CLUSTER : NemesisDeployment.LOCAL_JOB;
    nemesisSink.checkRuns(job, deployment);
    List<FaultKind> kinds = faults.isEmpty() ? deployment.faultKinds() : FaultKind.parse(faults);
    for (FaultKind kind : kinds) {
      if (!deployment.applies(kind)) {
        throw new UserError("--faults: " + kind.key() + " needs the HA cluster: add --ha");
      }
    }
    recreate(directory);
    long seed = randomSeed != null ? randomSeed : System.nanoTime();
    LabProgress progress = new LabProgress(System.out, "nemesis");
    progress.line("random seed " + seed + " (--random-seed to repeat); lab in " + directory);
    NemesisReport report =
        new NemesisLab(
                networkSlot(),
                job,
                nemesisSink,
                deployment,
                settings.ratePerSecond(),
                settings.timeout(),
                kinds,
                seed,
                progress,
                Clock.systemUTC())
            .run(
                directory.toAbsolutePath(),
                CellTopics.of(inputTopic, outputTopic),
                Duration.ofMillis((long) (minutes * 60_000)));
    report.table().forEach(System.out::println);
    report.anomalies().forEach(anomaly -> System.out.println("anomaly: " + anomaly));
    if (json != null) {
      progress.line("timeline picture " + report.write(json));
    }
    System.out.println(report.line());
    return report.anomalies().isEmpty() ? 0 : 1;
  }

  private LabSettings settings() {
    if (rate < 1) {
      throw new UserError("--rate must be at least 1, got " + rate);
    }
    if (records < 0) {
      throw new UserError("--records must not be negative, got " + records);
    }
    if (crashHit < 1) {
      throw new UserError("--crash-at counts from 1, got " + crashHit);
    }
    if (minutes <= 0) {
      throw new UserError("--minutes must be positive, got " + minutes);
    }
    return new LabSettings(rate, records, crashHit, Duration.ofSeconds(timeoutSeconds));
  }

  private LabJob job() {
    if (jobClass == null) {
      if (!jobArguments.isEmpty() || jarJobClass != null) {
        throw new UserError("Job arguments and -c need --job CLASS|JAR");
      }
      return LabJob.seed();
    }
    if (!JobJarFile.isJar(jobClass)) {
      if (jarJobClass != null) {
        throw new UserError("-c names the job class of a jar, but " + jobClass + " is not a jar");
      }
      return LabJob.user(jobClass, jobArguments);
    }
    // Checked here, so that a missing jar or class is one line before any broker starts.
    JobJarFile jar = JobJarFile.open(jobClass, jarJobClass);
    return LabJob.userJar(jar.path().toAbsolutePath(), jar.jobClass(), jobArguments);
  }

  private static void recreate(Path directory) throws IOException {
    Directories.deleteRecursively(directory);
    Files.createDirectories(directory);
  }
}
