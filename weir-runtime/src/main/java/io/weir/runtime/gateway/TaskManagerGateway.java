package io.weir.runtime.gateway;

import io.weir.api.source.SourceSplit;
import io.weir.runtime.checkpoint.CheckpointKind;
import java.nio.file.Path;
import java.util.List;

/**
 * One task manager as one attempt of a job sees it: the job manager's side of the conversation. In
 * one JVM the calls go straight to the subtasks; on a cluster they travel as messages to the task
 * manager's control thread.
 *
 * <p>Threads: {@link #deploy}, {@link #start}, {@link #terminate} and {@link #cancel} are called
 * from the job's thread; checkpoint calls from the checkpoint coordinator's threads. Order: calls
 * reach the task manager in the order they were made (a notification is never overtaken by a later
 * terminate). Blocking: none, except that an in-process {@link #deploy} creates the subtasks and an
 * in-process {@link #cancel} waits for their threads to end. Failure: calls do not throw; what goes
 * wrong on the task manager comes back through {@link JobManagerGateway}.
 */
public interface TaskManagerGateway {
  String taskManagerId();

  /**
   * Creates (without starting) the subtasks placed on this task manager; the answer is {@link
   * JobManagerGateway#tasksDeployed}. Reports go to {@code jobManager}: in one JVM directly, on a
   * cluster over the task manager's own connection to the job manager, which hands them to the same
   * attempt.
   */
  void deploy(AttemptDeployment deployment, JobManagerGateway jobManager);

  /** Every task manager deployed its subtasks: start them. */
  void start();

  /**
   * Asks the sources to place the checkpoint's barrier.
   *
   * @param savepointDirectory where this checkpoint's state goes instead of the job's checkpoint
   *     storage, or null for a checkpoint
   */
  void triggerCheckpoint(
      long checkpointId, long timestamp, Path savepointDirectory, CheckpointKind kind);

  void notifyCheckpointComplete(long checkpointId);

  void notifyCheckpointAborted(long checkpointId);

  /**
   * Hands {@code splits} to the reader of subtask {@code subtask} of the source task {@code
   * vertexId}, as mail of its task: after what reached the task before, before any checkpoint
   * trigger sent after this call. Called from the job manager's threads that call into the split
   * enumerators (the job's thread when a reader registers, the enumerators' own thread), under the
   * enumerators' lock.
   */
  void assignSplits(String vertexId, int subtask, List<SourceSplit> splits);

  /**
   * Tells the reader of subtask {@code subtask} of the source task {@code vertexId} that its
   * enumerator assigns it no more splits, as mail of its task, after every assignment made before;
   * called as {@link #assignSplits} is.
   */
  void signalNoMoreSplits(String vertexId, int subtask);

  /** Ends the subtasks normally, each after the mail it holds (a notification among it). */
  void terminate();

  /** Stops every subtask at once (failover or cancel) and releases them. */
  void cancel();
}
