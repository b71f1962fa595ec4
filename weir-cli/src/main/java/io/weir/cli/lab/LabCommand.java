package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.devservers.process.DevServerException;
import io.weir.lab.JsonReport;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.crash.CellResult;
import io.weir.lab.crash.LabJson;
import io.weir.lab.crash.MatrixReport;
import io.weir.lab.crash.MatrixRun;
import io.weir.lab.nemesis.NemesisDeployment;
import io.weir.lab.overload.OverloadSettings;
import io.weir.lab.process.LabJob;
import io.weir.lab.soak.JobManagerKillSoak;
import io.weir.lab.soak.Soak;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

  @Option(
      names = "--ha",
      description =
          "With --soak: run the job on a highly available cluster of its own (ZooKeeper, two job"
              + " managers, two task managers) and lose the leading job manager at random, killed"
              + " (kill -9) or frozen (SIGSTOP, then SIGCONT). With --nemesis: run the job on"
              + " ZooKeeper, two job managers and three task managers, each on a host of its own.")
  boolean highAvailability;

  @Option(
      names = "--reuse-broker",
      description = "Run every cell on one broker, with fresh topics and group per cell.")
  boolean reuseBroker;

  @Mixin LabOptions lab = new LabOptions();

  @Mixin OverloadOptions overload = new OverloadOptions();

  @Mixin NemesisOptions nemesis = new NemesisOptions();

  @Mixin OperationsOptions operations = new OperationsOptions();

  /** Chooses the lab the options ask for, after refusing options that do not go with it. */
  @Override
  public Integer call() throws Exception {
    LabSettings settings = lab.settings();
    if (nemesis.cleanup) {
      return nemesis.cleanUp();
    }
    if (nemesis.nemesis) {
      if (soak || operations.operations) {
        throw new UserError("--nemesis runs its own jobs: drop --soak, --operations");
      }
      return nemesis.run(
          lab,
          settings,
          highAvailability ? NemesisDeployment.HA_CLUSTER : NemesisDeployment.LOCAL_JOB);
    }
    if (overload.overload) {
      return overload();
    }
    if (overload.strayOption()) {
      throw new UserError("--unaligned, --kill and --record-delay-micros go with --overload");
    }
    if (nemesis.strayOption()) {
      throw new UserError("--faults chooses the faults of --nemesis: add --nemesis");
    }
    if (highAvailability && !soak) {
      throw new UserError("--ha kills job managers in the soak: add --soak");
    }
    if (operations.operations && !soak) {
      return operations.run(lab, settings);
    }
    lab.recreateDirectory();
    if (lab.sink == LabSink.POSTGRES) {
      return postgresMatrix(settings);
    }
    LabJob job = lab.job();
    LabProgress progress = new LabProgress(System.out, "lab");
    progress.line((soak ? "soak of " : "matrix of ") + job.describe() + " in " + lab.directory);
    return soak ? soak(job, settings, progress) : matrix(job, settings, progress);
  }

  private int overload() throws Exception {
    if (soak
        || operations.operations
        || highAvailability
        || lab.jobClass != null
        || lab.sink != LabSink.KAFKA) {
      throw new UserError(
          "--overload runs the seed job into Kafka: drop --soak, --operations, --ha, --job,"
              + " --sink");
    }
    OverloadSettings overloadSettings = overload.settings(lab.minutes, lab.timeout());
    lab.recreateDirectory();
    return overload.run(overloadSettings, lab.directory, lab.topics(), lab.json);
  }

  private int matrix(LabJob job, LabSettings settings, LabProgress progress) throws Exception {
    List<CellResult> results =
        new MatrixRun(job, settings, reuseBroker, progress).run(lab.directory, lab.topics());
    MatrixReport.print(results, System.out);
    if (lab.json != null) {
      LabJson.write(lab.json, results);
    }
    boolean allMeasured = results.stream().allMatch(result -> result.outcome().failure() == null);
    return allMeasured ? 0 : 1;
  }

  /** The matrix with the PostgreSQL sink, against a server of its own for all cells. */
  private int postgresMatrix(LabSettings settings) throws Exception {
    if (soak || lab.jobClass != null) {
      throw new UserError("--sink postgres runs the matrix of its own job: drop --soak and --job");
    }
    LabProgress progress = new LabProgress(System.out, "lab");
    Path serverDirectory = lab.directory.resolve("postgres");
    progress.line("starting a PostgreSQL server in " + serverDirectory);
    try (PostgresServer server =
        PostgresServer.start(PostgresServerConfig.inDirectory(serverDirectory).withPort(0))) {
      LabJob job = LabJob.postgres(server.jdbcUrl());
      progress.line("matrix of " + job.describe() + " in " + lab.directory);
      return matrix(job, settings, progress);
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  private int soak(LabJob job, LabSettings settings, LabProgress progress) throws Exception {
    long seed = lab.seed();
    progress.line("random seed " + seed + " (--random-seed to repeat)");
    if (highAvailability) {
      return jobManagerKillSoak(job, settings, progress, seed);
    }
    Soak.Result result =
        new Soak(job, settings, progress, seed, operations.operations)
            .run(lab.directory, lab.topics(), lab.duration());
    System.out.println(result.line());
    if (lab.json != null) {
      JsonReport.write(lab.json, result.report());
    }
    return result.verdict().exactlyOnce() ? 0 : 1;
  }

  private int jobManagerKillSoak(LabJob job, LabSettings settings, LabProgress progress, long seed)
      throws Exception {
    JobManagerKillSoak.Result result =
        new JobManagerKillSoak(job, settings, progress, seed)
            .run(lab.directory, lab.topics(), lab.duration());
    System.out.println(result.line());
    if (lab.json != null) {
      JsonReport.write(lab.json, result.report());
    }
    return result.verdict().exactlyOnce() ? 0 : 1;
  }
}
