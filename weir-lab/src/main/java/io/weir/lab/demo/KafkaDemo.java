package io.weir.lab.demo;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.lab.CellTopics;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.lab.process.DashboardPort;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.OutputSettling;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code weir demo}: the seed's experiment in one command. Starts a broker, loads records with
 * unique ids into {@code foo}, runs the seed job (its own process) with checkpoints every second,
 * halts it once right after a sink commit, restarts it from its checkpoint, and counts what a
 * {@code read_committed} reader sees in {@code bar}.
 */
public final class KafkaDemo {
  private final long records;
  private final boolean chained;
  private final Path directory;
  private final String failpoint;
  private final String dashboardHost;
  private final int webPort;
  private final boolean keep;

  /**
   * @param failpoint where the first job process halts
   * @param dashboardHost the host the job processes' dashboard is shown at
   * @param webPort the job processes' dashboard port (0: any free port)
   * @param keep leave the restarted job, its dashboard and the broker up until Ctrl-C
   */
  public KafkaDemo(
      long records,
      boolean chained,
      Path directory,
      String failpoint,
      String dashboardHost,
      int webPort,
      boolean keep) {
    this.records = records;
    this.chained = chained;
    this.directory = directory;
    this.failpoint = failpoint;
    this.dashboardHost = dashboardHost;
    this.webPort = webPort;
    this.keep = keep;
  }

  /** Runs the demo; 0 when the restarted job's output is exactly once, else 1. */
  public int run() throws Exception {
    Progress progress = new Progress();
    progress.line("starting the embedded Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker =
        KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory.resolve("kafka")))) {
      String bootstrap = broker.bootstrapServers();
      Topics.create(bootstrap, 4, "foo", "bar");
      SeedInput input = new SeedInput(bootstrap, "foo");
      OutputVerifier output = new OutputVerifier(bootstrap, "bar");
      Path checkpoints = directory.resolve("checkpoints");
      int port = DashboardPort.choose(webPort, message -> progress.line(message));
      progress.line("dashboard of the job processes: http://" + dashboardHost + ":" + port + "/");
      List<String> run = runArgs(bootstrap, checkpoints, port);
      progress.line(
          "job process 1: seed job" + (chained ? " (chained)" : "") + ", failpoint " + failpoint);
      CompletableFuture<Void> loading;
      try (JobProcess first = JobProcess.start(run, failpoint, directory.resolve("job-1.log"))) {
        loading =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    input.load(0, records, Math.max(records / 10, 1000));
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
        int exit = waitWithProgress(first, input, output, progress, 120_000);
        progress.line(
            "job process 1 ended with exit code "
                + exit
                + (exit == 137 ? " (halted at the failpoint, like kill -9)" : ""));
      }
      progress.line(
          "after the crash: bar read_uncommitted="
              + output.read(false).records()
              + " read_committed="
              + output.read(true).records()
              + " group offsets="
              + Topics.committedOffsets(bootstrap, CellTopics.seedDefaults().group()));
      loading.join();
      Path latest = latestCheckpoint(checkpoints.resolve(chained ? "seed-chained" : "seed"));
      progress.line("job process 2: restart with -s " + latest);
      List<String> restart = new ArrayList<>(List.of("-s", latest.toString()));
      restart.addAll(run);
      OutputVerifier.Verdict verdict;
      try (JobProcess second = JobProcess.start(restart, null, directory.resolve("job-2.log"))) {
        verdict =
            OutputSettling.awaitAll(
                second,
                output,
                records,
                bootstrap,
                CellTopics.seedDefaults(),
                Duration.ofMinutes(2),
                committed -> progress.update(input.loaded(), records, committed));
        System.out.println(verdict.line());
        if (keep) {
          progress.line(
              "--keep: the restarted job and its dashboard stay up at http://"
                  + dashboardHost
                  + ":"
                  + port
                  + "/ until Ctrl-C");
          keepUntilInterrupted(second, broker);
        }
      }
      return verdict.exactlyOnce() ? 0 : 1;
    }
  }

  /**
   * Waits for Ctrl-C (or the job's end); the shutdown hook stops the job process and the broker,
   * since a JVM ending on a signal closes no resources by itself.
   */
  private static void keepUntilInterrupted(JobProcess job, KafkaBroker broker)
      throws InterruptedException {
    Thread stop =
        new Thread(
            () -> {
              try {
                job.close();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              broker.stop();
            },
            "weir demo stop");
    Runtime.getRuntime().addShutdownHook(stop);
    while (job.isAlive()) {
      job.waitFor(1000);
    }
  }

  private List<String> runArgs(String bootstrap, Path checkpoints, int webPort) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--web-port",
                Integer.toString(webPort),
                "--checkpoint-dir",
                checkpoints.toString(),
                "io.weir.examples.SeedJob",
                "--bootstrap",
                bootstrap,
                "--checkpoint-interval",
                "1000"));
    if (chained) {
      args.add("--chained");
    }
    return args;
  }

  private int waitWithProgress(
      JobProcess job, SeedInput input, OutputVerifier output, Progress progress, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (System.currentTimeMillis() < deadline) {
      int exit = job.waitFor(1000);
      if (exit != -1) {
        return exit;
      }
      progress.update(input.loaded(), records, output.read(true).records());
    }
    throw new LabUserError(
        "The job process did not reach the failpoint within "
            + timeoutMillis / 1000
            + " s; see "
            + job.log());
  }

  private static Path latestCheckpoint(Path job) {
    try {
      return CheckpointLoader.load(job).location();
    } catch (IOException e) {
      throw new LabUserError(
          "No completed checkpoint to restart from in " + job + ": " + e.getMessage());
    }
  }

  /** Empties the demo's working directory, or creates it. */
  public static void recreate(Path path) throws IOException {
    Directories.deleteRecursively(path);
    Files.createDirectories(path);
  }

  /** Progress on the terminal: one line per step, one updated line while waiting. */
  private static final class Progress {
    void line(String text) {
      System.out.println("demo: " + text);
    }

    void update(long loaded, long total, long committed) {
      System.out.printf(
          "demo: loaded %,d/%,d records, %,d committed in bar%n", loaded, total, committed);
    }
  }
}
