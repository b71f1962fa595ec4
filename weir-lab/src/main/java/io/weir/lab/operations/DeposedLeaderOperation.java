package io.weir.lab.operations;

import io.weir.cluster.ha.LeaderInfo;
import io.weir.devservers.process.ProcessSignals;
import io.weir.devservers.process.ProcessSignals.Signal;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabHaCluster;
import io.weir.lab.process.OutputSettling;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A leader deposed while frozen and woken after its successor went on: the job runs on a highly
 * available cluster of its own ({@link LabHaCluster}: ZooKeeper, two job managers, two task
 * managers) with input flowing; once it completed a checkpoint, its leader is frozen with SIGSTOP
 * until the standby leads, runs the job and completes a checkpoint of its own, and is then woken
 * with SIGCONT. The woken leader must find itself deposed and stand by, completing, committing and
 * settling nothing beside its successor: every input record once.
 */
final class DeposedLeaderOperation implements Operation {
  private static final int PARALLELISM = 2;
  private static final Set<String> FINAL_STATES = Set.of("FINISHED", "FAILED", "CANCELED");

  @Override
  public String key() {
    return "deposed-leader-woken";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  /** Only a cluster has a leader to lose; the cell brings its highly available one. */
  @Override
  public boolean runsOn(Deployment deployment) {
    return deployment == Deployment.CLUSTER;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    cell.progress("starting ZooKeeper, two job managers and two task managers");
    try (LabHaCluster cluster =
        LabHaCluster.start(cell.directory().resolve("ha-cluster"), cell.settings().timeout())) {
      String jobId;
      try (ContinuousFeed feed = cell.feed(0)) {
        jobId = submit(cell, cluster);
        long before = awaitCheckpointAfter(cell, cluster, -1, "the first leader");
        freezeUntilSuccessorCheckpoints(cell, cluster, jobId, before);
        feed.stop();
      }
      cell.progress("input stopped; running until the output settles");
      OutputSettling.await(
          () -> cluster.jobState(jobId).map(state -> !FINAL_STATES.contains(state)).orElse(true),
          cell.directory().resolve("ha-cluster"),
          cell.bootstrap(),
          cell.topics(),
          cell.settings().timeout());
      String state = cluster.jobState(jobId).orElse("unknown");
      if (!state.equals("RUNNING")) {
        return OperationOutcome.failed(
            "the job is " + state + " after the failover", cell.verdict());
      }
    }
    return OperationOutcome.counted(cell.verdict());
  }

  /** Submits the cell's job detached to the leader; returns its id. */
  private static String submit(OperationCell cell, LabHaCluster cluster) throws Exception {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "run",
                "--ha",
                cluster.url(),
                "--conf",
                cluster.configuration().toString(),
                "--detached"));
    arguments.addAll(cell.runArguments(PARALLELISM, List.of(), List.of()));
    cluster.command(arguments);
    String jobId = cluster.onlyJobId();
    cell.progress("job " + jobId + " submitted to the leader");
    return jobId;
  }

  /**
   * Freezes the leader, waits until a successor leads, runs the job and completed a checkpoint
   * after {@code before}, then wakes the frozen one and waits until it stands by.
   */
  private static void freezeUntilSuccessorCheckpoints(
      OperationCell cell, LabHaCluster cluster, String jobId, long before) throws Exception {
    LeaderInfo deposed = cluster.leader().orElseThrow(() -> new LabFailure("no leader"));
    JobProcess leader = cluster.leaderProcess();
    cell.progress("freezing the leader (SIGSTOP) after checkpoint " + before);
    ProcessSignals.send(leader.handle(), Signal.STOP);
    long successors;
    try {
      cluster.awaitCondition(
          "a standby leads after epoch " + deposed.epoch(),
          () -> cluster.leader().map(now -> now.epoch() > deposed.epoch()).orElse(false),
          null);
      cluster.awaitCondition(
          "the new leader runs job " + jobId,
          () -> cluster.jobState(jobId).map("RUNNING"::equals).orElse(false),
          null);
      successors = awaitCheckpointAfter(cell, cluster, before, "the new leader");
    } finally {
      ProcessSignals.send(leader.handle(), Signal.CONT);
    }
    cell.progress("woke the deposed leader (SIGCONT) after checkpoint " + successors);
    String deposedLine = "Deposed from epoch " + deposed.epoch();
    cluster.awaitCondition(
        "the woken job manager stands by",
        () -> {
          if (!leader.isAlive()) {
            throw JobLog.endedEarly("the woken job manager ended", leader.log());
          }
          return Files.readString(leader.log()).contains(deposedLine) && cluster.isStandby(leader);
        },
        leader.log());
    awaitCheckpointAfter(cell, cluster, successors, "the new leader, beside the woken one");
  }

  /** Waits until {@code who} completed a checkpoint newer than {@code afterId}; returns its id. */
  private static long awaitCheckpointAfter(
      OperationCell cell, LabHaCluster cluster, long afterId, String who) throws Exception {
    cluster.awaitCondition(
        who + " completes a checkpoint after " + afterId,
        () -> latestCheckpointId(cell) > afterId,
        null);
    return latestCheckpointId(cell);
  }

  /** The newest completed checkpoint's id, or -1 before the job completed one. */
  private static long latestCheckpointId(OperationCell cell) {
    try {
      return cell.latestCheckpoint().checkpointId();
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
