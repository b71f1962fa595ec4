package io.weir.cluster.taskmanager;

import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.startup.BesideStartStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task manager's heartbeats to its job manager: every heartbeat interval it sends the progress of
 * each attempt running here; each answer renews the task manager's {@link TaskManagerLease}. A job
 * manager that answers no heartbeat within its timeout has declared this task manager lost and
 * restarted the job elsewhere (or it hangs, or the network is cut): the heartbeats then close the
 * connection to it, which ends the task manager, so that its tasks stop rather than go on writing
 * beside their replacements.
 *
 * <p>{@link #start} once, after registering; the heartbeats run on the timer passed in, which the
 * task manager shuts down when it closes. {@link #answered} is called on a network thread.
 */
final class JobManagerHeartbeats {
  private static final Logger LOG = LoggerFactory.getLogger(JobManagerHeartbeats.class);

  private final String taskManagerId;
  private final TaskManagerOptions options;
  private final TaskManagerLease lease;
  private final Collection<TaskManagerAttempt> attempts;
  private final ScheduledExecutorService timer;
  // The job manager's last answer to a heartbeat, and its timeout (0 until the first answer).
  private volatile long lastAnswerNanos;
  private volatile long jobManagerTimeoutMillis;

  /**
   * @param attempts a live view of the attempts running here, read at each heartbeat
   */
  JobManagerHeartbeats(
      String taskManagerId,
      TaskManagerOptions options,
      TaskManagerLease lease,
      Collection<TaskManagerAttempt> attempts,
      ScheduledExecutorService timer) {
    this.taskManagerId = taskManagerId;
    this.options = options;
    this.lease = lease;
    this.attempts = attempts;
    this.timer = timer;
  }

  /** Sends the first heartbeat now and then one every interval, on the timer. */
  void start(RpcConnection jobManager) {
    timer.scheduleAtFixedRate(
        () -> {
          checkAnswers(jobManager);
          // The progress, with what each attempt may still do beside its start, is read before
          // the send time that the lease runs from.
          List<ControlMessages.AttemptProgress> progress = progress();
          jobManager.send(
              new ControlMessages.Heartbeat(taskManagerId, progress, System.nanoTime()));
        },
        0,
        options.heartbeatInterval().toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** The job manager answered a heartbeat: the lease runs from that heartbeat's send time. */
  void answered(ControlMessages.HeartbeatAnswer answer) {
    lastAnswerNanos = System.nanoTime();
    jobManagerTimeoutMillis = answer.timeoutMillis();
    lease.answered(answer.heartbeatSentNanos(), answer.timeoutMillis());
  }

  private void checkAnswers(RpcConnection jobManager) {
    long timeout = jobManagerTimeoutMillis;
    long silentMillis = (System.nanoTime() - lastAnswerNanos) / 1_000_000;
    // One heartbeat more than the job manager waits: a late answer is not taken for a lost one.
    if (timeout > 0 && silentMillis > timeout + options.heartbeatInterval().toMillis()) {
      LOG.error(
          "No answer from the job manager at {} for {} ms (its timeout is {} ms)",
          options.jobManager(),
          silentMillis,
          timeout);
      jobManagerTimeoutMillis = 0;
      jobManager.close();
    }
  }

  private List<ControlMessages.AttemptProgress> progress() {
    List<ControlMessages.AttemptProgress> progress = new ArrayList<>();
    for (TaskManagerAttempt attempt : attempts) {
      // Read first: the heartbeat's send time comes after it, and the figures may take a while.
      BesideStartStatus besideStart = attempt.besideStartStatus();
      RecordCounts counts = attempt.recordCounts();
      progress.add(
          new ControlMessages.AttemptProgress(
              attempt.id(),
              counts.in(),
              counts.out(),
              counts.deadLetters(),
              attempt.subtaskFigures(),
              besideStart));
    }
    return progress;
  }
}
