package io.weir.lab.soak;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.lab.CellTopics;
import io.weir.lab.CommitOrder;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabBroker;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import io.weir.runtime.failpoint.FailpointConfiguration;
import io.weir.runtime.failpoint.FailpointNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The soak: the job runs under continuous input while the lab kills it again and again — SIGKILL
 * from outside at a random moment, or a halt at a random failpoint — and every few rounds kills and
 * restarts the broker too. Each restart is a plain {@code weir run} on the same checkpoint
 * directory, which resumes from the latest completed checkpoint; with operations, each restart also
 * picks a parallelism of 1, 2 or 4 at random, so many restarts are rescales, and rounds 2, 6, 10,
 * ... run the job on a cluster of its own and end it with a savepoint stop instead of a crash
 * ({@link SoakSavepointStop}); the next round resumes from that savepoint. At the end the input
 * stops, the job runs until its output settles, and the committed output is compared with the
 * input.
 */
public final class Soak {
  private static final int BROKER_KILL_EVERY = 3;

  /**
   * With operations, round 2 and every this many rounds after it end with a savepoint stop instead
   * of a crash: fixed, so that even a short soak stops with a savepoint once.
   */
  private static final int SAVEPOINT_STOP_EVERY = 4;

  private static final List<String> HALT_POINTS =
      List.of(
          FailpointNames.CHECKPOINT_TRIGGER,
          FailpointNames.TASK_SNAPSHOT_AFTER,
          FailpointNames.TASK_ACK_BEFORE,
          FailpointNames.COORDINATOR_METADATA_BEFORE,
          FailpointNames.COORDINATOR_METADATA_AFTER,
          FailpointNames.COORDINATOR_NOTIFY_BEFORE,
          FailpointNames.SINK_COMMIT_BEFORE,
          FailpointNames.SINK_COMMIT_AFTER,
          FailpointNames.SOURCE_OFFSETS_COMMIT_BEFORE,
          FailpointNames.SOURCE_OFFSETS_COMMIT_AFTER);

  private static final List<Integer> PARALLELISMS = List.of(1, 2, 4);

  /**
   * What the soak did and found; {@code rescales} and {@code savepointStops} are -1 when the soak
   * made none on purpose.
   */
  public record Result(
      int jobKills,
      int brokerKills,
      int rescales,
      int savepointStops,
      long records,
      OutputVerifier.Verdict verdict) {
    public String line() {
      return "soak: kills="
          + (jobKills + brokerKills)
          + (rescales < 0 ? "" : " rescales=" + rescales)
          + (savepointStops < 0 ? "" : " savepoint-stops=" + savepointStops)
          + " records="
          + records
          + " lost="
          + verdict.lost()
          + " duplicated="
          + verdict.duplicated();
    }

    /** The report {@code --json} writes; a count the soak did not aim for is left out. */
    public Map<String, Object> report() {
      Map<String, Object> report = new LinkedHashMap<>();
      report.put("job_kills", jobKills);
      report.put("broker_kills", brokerKills);
      if (rescales >= 0) {
        report.put("rescales", rescales);
      }
      if (savepointStops >= 0) {
        report.put("savepoint_stops", savepointStops);
      }
      report.put("records", records);
      report.put("lost", verdict.lost());
      report.put("duplicated", verdict.duplicated());
      return report;
    }
  }

  private final LabJob job;
  private final LabSettings settings;
  private final LabProgress progress;
  private final Random random;
  private final boolean operations;

  /** {@code operations}: rescale at random on restarts too. */
  public Soak(
      LabJob job, LabSettings settings, LabProgress progress, long randomSeed, boolean operations) {
    this.job = job;
    this.settings = settings;
    this.progress = progress;
    this.random = new Random(randomSeed);
    this.operations = operations;
  }

  public Result run(Path directory, CellTopics topics, Duration duration) throws Exception {
    progress.line("starting a Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker = KafkaBroker.start(LabBroker.config(directory.resolve("kafka")))) {
      String bootstrap = broker.bootstrapServers();
      Topics.create(bootstrap, 4, topics.input(), topics.output());
      Path checkpoints = directory.resolve("checkpoints");
      int parallelism = 1;
      List<String> run = runArguments(bootstrap, topics, checkpoints, parallelism);
      int rounds = 0;
      int jobKills = 0;
      int brokerKills = 0;
      int rescales = 0;
      int savepointStops = 0;
      long records;
      long deadline = System.currentTimeMillis() + duration.toMillis();
      try (ContinuousFeed feed =
          ContinuousFeed.start(bootstrap, topics.input(), settings.ratePerSecond(), 0)) {
        while (System.currentTimeMillis() < deadline) {
          if (operations && rounds > 0) {
            int next = PARALLELISMS.get(random.nextInt(PARALLELISMS.size()));
            if (next != parallelism) {
              rescales++;
              progress.line("rescale " + parallelism + " -> " + next + " on this restart");
              parallelism = next;
              run = runArguments(bootstrap, topics, checkpoints, parallelism);
            }
          }
          rounds++;
          if (operations && rounds % SAVEPOINT_STOP_EVERY == 2) {
            savepointStops++;
            new SoakSavepointStop(settings.timeout(), progress)
                .run(
                    run,
                    checkpoints,
                    directory.resolve("stop-" + rounds),
                    1000 + random.nextInt(3000),
                    rounds);
          } else {
            jobKills++;
            killOnce(run, directory.resolve("job-" + rounds + ".log"), rounds);
          }
          // Rounds 1, 4, 7, ...: even a short soak loses its broker once.
          if (rounds % BROKER_KILL_EVERY == 1) {
            brokerKills++;
            restartBroker(broker, feed, brokerKills);
          }
        }
        records = feed.stop();
      }
      progress.line("input stopped at " + records + " records; final run until the output settles");
      try (JobProcess last = JobProcess.start(run, null, directory.resolve("job-final.log"))) {
        OutputSettling.await(last, bootstrap, topics, settings.timeout());
      }
      OutputVerifier.Reading input = new OutputVerifier(bootstrap, topics.input()).read(false);
      OutputVerifier.Verdict verdict =
          new OutputVerifier(bootstrap, topics.output()).read(true).verifyAgainst(input);
      progress.line(verdict.line());
      return new Result(
          jobKills,
          brokerKills,
          operations ? rescales : -1,
          operations ? savepointStops : -1,
          input.records(),
          verdict);
    }
  }

  /** {@code weir run} without a start option: resume from the latest checkpoint, if any. */
  private List<String> runArguments(
      String bootstrap, CellTopics topics, Path checkpoints, int parallelism) {
    List<String> start =
        operations ? List.of("-p", Integer.toString(parallelism)) : List.<String>of();
    return job.runArguments(CommitOrder.SOURCE_FIRST, bootstrap, topics, checkpoints, start);
  }

  private void killOnce(List<String> run, Path log, int round) throws Exception {
    boolean halt = random.nextBoolean();
    String failpoint =
        halt
            ? HALT_POINTS.get(random.nextInt(HALT_POINTS.size()))
                + "=halt@"
                + (1 + random.nextInt(3))
            : null;
    long lifetimeMillis = 2000 + random.nextInt(4000);
    try (JobProcess process = JobProcess.start(run, failpoint, log)) {
      int exit = process.waitFor(halt ? lifetimeMillis * 2 : lifetimeMillis);
      if (exit == -1) {
        process.kill();
        progress.line(
            "round "
                + round
                + ": SIGKILL after "
                + (halt ? lifetimeMillis * 2 : lifetimeMillis)
                + " ms"
                + (halt ? " (" + failpoint + " not reached)" : ""));
      } else if (exit == FailpointConfiguration.DEFAULT_HALT_EXIT_CODE) {
        progress.line("round " + round + ": halted at " + failpoint);
      } else {
        throw new LabFailure(
            "the job process exited with " + exit + " in round " + round + "; see " + log);
      }
    }
  }

  private void restartBroker(KafkaBroker broker, ContinuousFeed feed, int brokerKill) {
    feed.pause();
    broker.kill();
    progress.line("broker kill " + brokerKill + ": SIGKILL, restarting it");
    broker.restart();
    feed.resume();
  }
}
