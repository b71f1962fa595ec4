package io.weir.runtime.taskexecutor;

import io.weir.api.source.SourceSplit;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.gateway.SlotPool;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.task.AssignedSplits;
import io.weir.runtime.task.StreamTask;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * The task manager of a job run in one JVM: it has every slot, runs every subtask, and the job
 * manager's calls reach the subtasks directly; the exchange is the subtasks' own gates. One per
 * job.
 */
public final class InProcessTaskManager implements SlotPool {
  private static final String ID = "local";

  private final JobGraph graph;
  private final CheckpointStorage stateStorage;
  private final Executor snapshotExecutor;
  private final Clock clock;
  private final Failpoints failpoints;
  private volatile TaskExecutorAttempt latest;

  /**
   * @param jobStorage the job's checkpoint storage, which the subtasks store their state in
   * @param failpoints the job's, which its subtasks pass
   */
  public InProcessTaskManager(
      JobGraph graph,
      CheckpointStorage jobStorage,
      Executor snapshotExecutor,
      Clock clock,
      Failpoints failpoints) {
    this.graph = graph;
    this.stateStorage = TaskStateStorage.of(jobStorage);
    this.snapshotExecutor = snapshotExecutor;
    this.clock = clock;
    this.failpoints = failpoints;
  }

  @Override
  public List<TaskManagerGateway> awaitSlots(int attempt, int needed, BooleanSupplier cancelled) {
    return Collections.nCopies(needed, new AttemptGateway());
  }

  /** The subtasks of the latest attempt (they stay after it ended, with their counters). */
  public List<StreamTask> tasks() {
    TaskExecutorAttempt attempt = latest;
    return attempt == null ? List.of() : attempt.tasks();
  }

  public RecordCounts recordCounts() {
    return RecordCounts.of(tasks());
  }

  /** One attempt's subtasks in this JVM, as the attempt on the job manager's side calls them. */
  private final class AttemptGateway implements TaskManagerGateway {
    private volatile TaskExecutorAttempt attempt;

    @Override
    public String taskManagerId() {
      return ID;
    }

    @Override
    public void deploy(AttemptDeployment deployment, JobManagerGateway jobManager) {
      try {
        attempt =
            new TaskExecutorAttempt(
                ID,
                graph,
                deployment,
                stateStorage,
                ExchangeTransport.IN_PROCESS,
                jobManager,
                snapshotExecutor,
                clock,
                () -> {},
                failpoints,
                new BesideStartWork());
        latest = attempt;
        jobManager.tasksDeployed(ID, null);
      } catch (Exception e) {
        jobManager.tasksDeployed(ID, e);
      }
    }

    @Override
    public void start() {
      attempt.start();
    }

    @Override
    public void triggerCheckpoint(
        long checkpointId, long timestamp, Path savepointDirectory, CheckpointKind kind) {
      attempt.triggerCheckpoint(checkpointId, timestamp, savepointDirectory, kind);
    }

    @Override
    public void assignSplits(String vertexId, int subtask, List<SourceSplit> splits) {
      attempt.assignSplits(vertexId, subtask, AssignedSplits.of(splits));
    }

    @Override
    public void signalNoMoreSplits(String vertexId, int subtask) {
      attempt.signalNoMoreSplits(vertexId, subtask);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      attempt.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
      attempt.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void terminate() {
      attempt.terminate();
    }

    @Override
    public void cancel() {
      if (attempt == null) {
        return;
      }
      try {
        attempt.cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
