package io.weir.lab.soak;

import io.weir.cluster.ha.LeaderInfo;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.process.ProcessSignals;
import io.weir.devservers.process.ProcessSignals.Signal;
import io.weir.lab.CellTopics;
import io.weir.lab.CommitOrder;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabBroker;
import io.weir.lab.process.LabHaCluster;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The soak against a highly available cluster ({@code weir lab --soak --ha}): the job runs on a
 * cluster of its own ({@link LabHaCluster}) under continuous input, and every few seconds, once the
 * leader committed, the lab loses the leading job manager at random: {@code kill -9} (then starts a
 * new job manager in its place, so there is always a standby) or {@code SIGSTOP} until a standby
 * took over, then {@code SIGCONT} (it must find itself deposed and stand by). Every few rounds the
 * broker is killed and restarted too. At the end the input stops, the job runs until its output
 * settles, and the committed output is compared with the input.
 */
public final class JobManagerKillSoak {
  private static final int BROKER_KILL_EVERY = 3;
  private static final int PARALLELISM = 2;
  private static final Set<String> FINAL_STATES = Set.of("FINISHED", "FAILED", "CANCELED");

  /** How a leader is lost. */
  enum LeaderLoss {
    KILLED,
    FROZEN
  }

  /** One failover's times, in ms since the leader was lost. */
  record Failover(
      int round, LeaderLoss loss, long leadsMillis, long runningMillis, long committedMillis) {
    String line() {
      return "round "
          + round
          + ": leader "
          + (loss == LeaderLoss.KILLED ? "killed (kill -9)" : "frozen (SIGSTOP, then SIGCONT)")
          + "; a standby leads after "
          + leadsMillis
          + " ms, runs the job after "
          + runningMillis
          + " ms, commits input offsets of its own after "
          + committedMillis
          + " ms";
    }
  }

  /** What the soak did and found. */
  public record Result(
      List<Failover> failovers, int brokerKills, long records, OutputVerifier.Verdict verdict) {
    public int jobManagerKills() {
      return failovers.size();
    }

    public String line() {
      return "soak: kills="
          + (failovers.size() + brokerKills)
          + " jobmanager-kills="
          + failovers.size()
          + " broker-kills="
          + brokerKills
          + " records="
          + records
          + " lost="
          + verdict.lost()
          + " duplicated="
          + verdict.duplicated();
    }

    /** The report {@code --json} writes. */
    public Map<String, Object> report() {
      Map<String, Object> report = new LinkedHashMap<>();
      report.put("jobmanager_kills", jobManagerKills());
      report.put("broker_kills", brokerKills);
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

  public JobManagerKillSoak(
      LabJob job, LabSettings settings, LabProgress progress, long randomSeed) {
    this.job = job;
    this.settings = settings;
    this.progress = progress;
    this.random = new Random(randomSeed);
  }

  public Result run(Path directory, CellTopics topics, Duration duration) throws Exception {
    progress.line("starting a Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker = KafkaBroker.start(LabBroker.config(directory.resolve("kafka")))) {
      String bootstrap = broker.bootstrapServers();
      Topics.create(bootstrap, 4, topics.input(), topics.output());
      progress.line("starting ZooKeeper, two job managers and two task managers");
      try (LabHaCluster cluster =
          LabHaCluster.start(directory.resolve("cluster"), settings.timeout())) {
        List<Failover> failovers = new ArrayList<>();
        int brokerKills = 0;
        long records;
        try (ContinuousFeed feed =
            ContinuousFeed.start(bootstrap, topics.input(), settings.ratePerSecond(), 0)) {
          String jobId = submit(cluster, bootstrap, topics, directory);
          progress.line("job " + jobId + " runs on the leader and commits");
          long deadline = System.currentTimeMillis() + duration.toMillis();
          int round = 0;
          while (System.currentTimeMillis() < deadline) {
            round++;
            Thread.sleep(2000 + random.nextInt(3000));
            LeaderLoss loss = random.nextBoolean() ? LeaderLoss.KILLED : LeaderLoss.FROZEN;
            Failover failover = loseLeader(cluster, bootstrap, topics, jobId, round, loss);
            failovers.add(failover);
            progress.line(failover.line());
            // Rounds 1, 4, 7, ...: even a short soak loses its broker once.
            if (round % BROKER_KILL_EVERY == 1) {
              brokerKills++;
              feed.pause();
              broker.kill();
              progress.line("broker kill " + brokerKills + ": SIGKILL, restarting it");
              broker.restart();
              feed.resume();
            }
          }
          records = feed.stop();
        }
        progress.line("input stopped at " + records + " records; running until the output settles");
        String jobId = cluster.onlyJobId();
        OutputSettling.await(
            // Restarting (after a broker kill) or between leaders, it still runs.
            () -> cluster.jobState(jobId).map(state -> !FINAL_STATES.contains(state)).orElse(true),
            directory.resolve("cluster"),
            new OutputVerifier(bootstrap, topics.output()),
            bootstrap,
            topics,
            settings.timeout());
        OutputVerifier.Reading input = new OutputVerifier(bootstrap, topics.input()).read(false);
        OutputVerifier.Verdict verdict =
            new OutputVerifier(bootstrap, topics.output()).read(true).verifyAgainst(input);
        progress.line(verdict.line());
        return new Result(failovers, brokerKills, input.records(), verdict);
      }
    }
  }

  /** Submits the job detached to the leader; returns its id once it committed input offsets. */
  private String submit(LabHaCluster cluster, String bootstrap, CellTopics topics, Path directory)
      throws Exception {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "run",
                "--ha",
                cluster.url(),
                "--conf",
                cluster.configuration().toString(),
                "--detached"));
    arguments.addAll(
        job.runArguments(
            CommitOrder.SOURCE_FIRST,
            bootstrap,
            topics,
            directory.resolve("cluster").resolve("checkpoints"),
            List.of("-p", Integer.toString(PARALLELISM))));
    cluster.command(arguments);
    String jobId = cluster.onlyJobId();
    cluster.awaitCondition(
        "job " + jobId + " commits input offsets",
        () -> Topics.committedOffsets(bootstrap, topics.group()) > 0,
        directory.resolve("cluster"));
    return jobId;
  }

  /**
   * Loses the leader as {@code loss} says and waits until a standby leads, runs the job, and
   * committed input offsets of its own; replaces a killed job manager, wakes a frozen one and waits
   * until it stands by again.
   */
  private Failover loseLeader(
      LabHaCluster cluster,
      String bootstrap,
      CellTopics topics,
      String jobId,
      int round,
      LeaderLoss loss)
      throws Exception {
    LeaderInfo deposed = cluster.leader().orElseThrow(() -> new LabFailure("no leader"));
    JobProcess leader = cluster.leaderProcess();
    long since = System.nanoTime();
    Failover failover;
    if (loss == LeaderLoss.KILLED) {
      leader.kill();
      failover = awaitTakeOver(cluster, bootstrap, topics, jobId, round, loss, deposed, since);
      cluster.startJobManager();
    } else {
      ProcessSignals.send(leader.handle(), Signal.STOP);
      try {
        failover = awaitTakeOver(cluster, bootstrap, topics, jobId, round, loss, deposed, since);
      } finally {
        ProcessSignals.send(leader.handle(), Signal.CONT);
      }
      // It must find itself deposed, and be back in ZooKeeper as a standby with a new session.
      String deposedLine = "Deposed from epoch " + deposed.epoch();
      cluster.awaitCondition(
          "the woken job manager stands by",
          () -> {
            if (!leader.isAlive()) {
              throw JobLog.endedEarly("the woken job manager ended", leader.log());
            }
            return Files.readString(leader.log()).contains(deposedLine)
                && cluster.isStandby(leader);
          },
          leader.log());
    }
    return failover;
  }

  private Failover awaitTakeOver(
      LabHaCluster cluster,
      String bootstrap,
      CellTopics topics,
      String jobId,
      int round,
      LeaderLoss loss,
      LeaderInfo deposed,
      long since)
      throws Exception {
    cluster.awaitCondition(
        "a standby leads after epoch " + deposed.epoch(),
        () -> cluster.leader().map(leader -> leader.epoch() > deposed.epoch()).orElse(false),
        null);
    long leads = millisSince(since);
    cluster.awaitCondition(
        "the new leader runs job " + jobId,
        () -> cluster.jobState(jobId).map("RUNNING"::equals).orElse(false),
        null);
    long running = millisSince(since);
    long committedWhenRunning = Topics.committedOffsets(bootstrap, topics.group());
    cluster.awaitCondition(
        "the new leader's job commits input offsets",
        () -> Topics.committedOffsets(bootstrap, topics.group()) > committedWhenRunning,
        null);
    return new Failover(round, loss, leads, running, millisSince(since));
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
