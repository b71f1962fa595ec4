package io.weir.cluster.taskmanager;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.JobCode;
import io.weir.cluster.exchange.InboundGates;
import io.weir.cluster.exchange.OutboundChannels;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.MessageHandler;
import io.weir.cluster.rpc.RoleAccess;
import io.weir.cluster.rpc.RpcClient;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.cluster.rpc.RpcServer;
import io.weir.runtime.checkpoint.SubtaskKey;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task manager process: registers its slots with the job manager, heartbeats, and runs the
 * subtasks the job manager deploys to it. Control messages are handled one at a time on a control
 * thread (deploying runs the job's main, which must not hold up the network threads); a cancel
 * waits for the subtasks and their fences on a thread of its own and then confirms it with {@link
 * ControlMessages.TasksEnded}. It ends when it loses the job manager: its subtasks cannot go on
 * without it, and {@link #awaitEnd} returns once they and their fences ended, the cancels under way
 * included.
 *
 * <p>Every message of the job manager carries its leader epoch. The task manager refuses one older
 * than the newest epoch it knows (from the leader it registered with, from the messages it got, or
 * from ZooKeeper through {@link #leaderChanged}), so a deposed leader that wakes up can neither
 * deploy, trigger or complete a checkpoint, nor make a sink commit here.
 */
public final class TaskManager implements MessageHandler, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskManager.class);

  private final TaskManagerOptions options;
  private final String id = "tm-" + UUID.randomUUID().toString().substring(0, 8);
  private final EventLoopGroup network = EventLoops.create("weir-taskmanager-network", 4);
  private final InboundGates inbound = new InboundGates();
  private final ExecutorService control = singleThread("weir taskmanager control");
  // Cancels wait for the subtasks' threads and their fences: off the control thread, which goes on
  // handling the other jobs' messages meanwhile.
  private final ExecutorService cancels = Executors.newCachedThreadPool(daemon("weir cancel"));
  private final ExecutorService snapshotIo = Executors.newFixedThreadPool(2, daemon("weir io"));
  private final ScheduledExecutorService heartbeatTimer =
      Executors.newSingleThreadScheduledExecutor(daemon("weir heartbeat"));
  private final Map<AttemptId, TaskManagerAttempt> attempts = new ConcurrentHashMap<>();
  private final JobFailpoints failpoints = new JobFailpoints();
  private final ShippedJobJars jars = new ShippedJobJars(id);
  private final CountDownLatch ended = new CountDownLatch(1);
  private RpcServer dataServer;
  private RpcConnection jobManager;
  // Work beside a start (a sink's fence) begins only while it is valid.
  private final TaskManagerLease lease = new TaskManagerLease(System::nanoTime);
  private final JobManagerHeartbeats heartbeats;
  // Set by close(): the connection it closes is not a lost job manager.
  private volatile boolean closed;
  // The newest leader epoch this task manager knows; messages of older epochs are refused.
  private final AtomicLong leaderEpoch;
  // Slots each attempt uses here: one subtask of each of its tasks per slot.
  private final Map<AttemptId, Integer> slotsInUse = new ConcurrentHashMap<>();

  private TaskManager(TaskManagerOptions options, long leaderEpoch) {
    this.options = options;
    this.leaderEpoch = new AtomicLong(leaderEpoch);
    this.heartbeats =
        new JobManagerHeartbeats(id, options, lease, attempts.values(), heartbeatTimer);
  }

  /** Starts listening for data, connects to the job manager and offers the slots. */
  public static TaskManager start(TaskManagerOptions options)
      throws ClusterConnectException, InterruptedException {
    return start(options, 0);
  }

  /**
   * As above, for a job manager elected leader in {@code leaderEpoch}: messages of older epochs are
   * refused from the start.
   */
  public static TaskManager start(TaskManagerOptions options, long leaderEpoch)
      throws ClusterConnectException, InterruptedException {
    TaskManager taskManager = new TaskManager(options, leaderEpoch);
    try {
      taskManager.connect();
    } catch (ClusterConnectException | InterruptedException | RuntimeException e) {
      taskManager.close();
      throw e;
    }
    return taskManager;
  }

  private void connect() throws ClusterConnectException, InterruptedException {
    dataServer =
        RpcServer.bind(
            network,
            options.dataHost(),
            0,
            options.tls(),
            Map.of(
                "data",
                new RoleAccess(options.secret(), TaskManagerOptions.SECRET_SETTING, inbound)));
    jobManager =
        RpcClient.connect(
            network,
            "the job manager",
            options.jobManager(),
            "taskmanager",
            options.secret(),
            options.tls(),
            this);
    HostAndPort dataAddress = new HostAndPort(options.dataHost(), dataServer.port());
    jobManager.send(
        new ControlMessages.RegisterTaskManager(
            id, options.slots(), dataAddress, ProcessHandle.current().pid()));
    heartbeats.start(jobManager);
    LOG.info(
        "Task manager {} registered {} slots with the job manager at {}; data on {}",
        id,
        options.slots(),
        options.jobManager(),
        dataAddress);
  }

  public String id() {
    return id;
  }

  /** Blocks until the task manager lost its job manager or was closed. */
  public void awaitEnd() throws InterruptedException {
    ended.await();
  }

  /**
   * A newer leader took over (ZooKeeper says so): from now on messages of older epochs are refused,
   * and this task manager leaves its job manager, cancelling its tasks, to register with the new
   * one.
   */
  public void leaderChanged(long epoch) {
    long known = leaderEpoch.getAndAccumulate(epoch, Math::max);
    if (epoch > known) {
      LOG.warn(
          "A new leader (epoch {}) took over: leaving the job manager at {}",
          epoch,
          options.jobManager());
      jobManager.close();
    }
  }

  /** Slots that run a subtask of some attempt. */
  public int slotsInUse() {
    return slotsInUse.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Where other task managers send records to this one. */
  public HostAndPort dataAddress() {
    return new HostAndPort(options.dataHost(), dataServer.port());
  }

  @Override
  public void onMessage(RpcConnection connection, Object message) {
    if (!(message instanceof ControlMessages.Fenced fenced)) {
      LOG.warn("Refused a message without a leader epoch: {}", message.getClass().getSimpleName());
      return;
    }
    if (!admits(fenced)) {
      return;
    }
    if (fenced.message() instanceof ControlMessages.HeartbeatAnswer answer) {
      heartbeats.answered(answer);
      return;
    }
    // Checked again when its turn comes: a newer leader may have been seen meanwhile.
    control.execute(
        () -> {
          if (admits(fenced)) {
            handle(fenced.message());
          }
        });
  }

  /** True for the newest epoch known (which a newer one raises); false, logged, for older ones. */
  private boolean admits(ControlMessages.Fenced fenced) {
    long known = leaderEpoch.accumulateAndGet(fenced.epoch(), Math::max);
    if (fenced.epoch() < known) {
      LOG.warn(
          "Refused {} of a deposed leader (epoch {}; the leader's is {})",
          fenced.message().getClass().getSimpleName(),
          fenced.epoch(),
          known);
      return false;
    }
    return true;
  }

  @Override
  public void onClosed(RpcConnection connection) {
    if (closed) {
      return; // this task manager closed the connection itself
    }
    LOG.error("Lost the job manager at {}; cancelling all tasks", options.jobManager());
    control.execute(this::cancelAll);
    // A task manager that ended has nothing of any attempt running: a new leader relies on it.
    control.execute(this::awaitCancels);
    control.execute(ended::countDown);
  }

  /** Waits for the cancels under way (their fences included); no cancel starts after this. */
  private void awaitCancels() {
    cancels.shutdown();
    try {
      while (!cancels.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.warn("Task manager {} still waits for a cancelled attempt's subtasks", id);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(Object message) {
    try {
      if (message instanceof ControlMessages.DeployTasks deploy) {
        deploy(deploy);
      } else if (message instanceof ControlMessages.StartTasks start) {
        withAttempt(start.attempt(), TaskManagerAttempt::start);
      } else if (message instanceof ControlMessages.TriggerCheckpoint trigger) {
        withAttempt(
            trigger.attempt(),
            a ->
                a.triggerCheckpoint(
                    trigger.checkpointId(),
                    trigger.timestamp(),
                    trigger.savepointDirectory(),
                    trigger.kind()));
      } else if (message instanceof ControlMessages.AssignSplits assign) {
        toSourceSubtask(
            assign.attempt(),
            new SubtaskKey(assign.vertexId(), assign.subtask()),
            "Splits assigned to",
            a -> a.assignSplits(assign));
      } else if (message instanceof ControlMessages.NoMoreSplits noMore) {
        toSourceSubtask(
            noMore.attempt(),
            new SubtaskKey(noMore.vertexId(), noMore.subtask()),
            "The end of the splits of",
            a -> a.signalNoMoreSplits(noMore.vertexId(), noMore.subtask()));
      } else if (message instanceof ControlMessages.NotifyCheckpointComplete notify) {
        withAttempt(notify.attempt(), a -> a.notifyCheckpointComplete(notify.checkpointId()));
      } else if (message instanceof ControlMessages.NotifyCheckpointAborted notify) {
        withAttempt(notify.attempt(), a -> a.notifyCheckpointAborted(notify.checkpointId()));
      } else if (message instanceof ControlMessages.TerminateTasks terminate) {
        withAttempt(terminate.attempt(), TaskManagerAttempt::terminate);
      } else if (message instanceof ControlMessages.CancelTasks cancel) {
        TaskManagerAttempt attempt = attempts.remove(cancel.attempt());
        slotsInUse.remove(cancel.attempt());
        if (cancels.isShutdown()) {
          cancelAndConfirm(cancel.attempt(), attempt); // ending: nothing else waits for this thread
        } else {
          cancels.execute(() -> cancelAndConfirm(cancel.attempt(), attempt));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("Task manager {} failed to handle {}", id, message, e);
    }
  }

  /**
   * Cancels the attempt (null when it is not here: never deployed, or ended already) and then tells
   * the job manager its subtasks ended, which lets the job's next attempt deploy. A cancel that
   * fails confirms nothing: the job manager's wait for it times out instead.
   */
  private void cancelAndConfirm(AttemptId attemptId, TaskManagerAttempt attempt) {
    try {
      if (attempt != null) {
        attempt.cancel();
      }
      jobManager.send(new ControlMessages.TasksEnded(attemptId, id));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("Task manager {} failed to cancel {}", id, attemptId, e);
    }
  }

  private void deploy(ControlMessages.DeployTasks deploy) {
    JobCode code;
    try {
      code = jars.codeOf(deploy);
    } catch (IOException | RuntimeException e) {
      LOG.error("Cannot deploy {}: {}", deploy.attempt(), e.toString());
      jobManager.send(new ControlMessages.TasksDeployed(deploy.attempt(), id, e.toString()));
      return;
    }
    OutboundChannels outbound =
        new OutboundChannels(deploy.attempt(), network, options.secret(), options.tls());
    TaskManagerAttempt attempt =
        new TaskManagerAttempt(
            deploy,
            code,
            id,
            jobManager,
            inbound,
            outbound,
            snapshotIo,
            ended -> control.execute(() -> release(ended)),
            failpoints,
            lease::isValid);
    try {
      attempt.deploy();
      attempts.put(deploy.attempt(), attempt);
      slotsInUse.put(deploy.attempt(), slotsUsedBy(deploy));
      LOG.info("Deployed {} subtasks of {}", attempt.taskCount(), deploy.attempt());
      jobManager.send(new ControlMessages.TasksDeployed(deploy.attempt(), id, null));
    } catch (Exception e) {
      LOG.error("Cannot deploy {}", deploy.attempt(), e);
      attempt.release();
      jobManager.send(new ControlMessages.TasksDeployed(deploy.attempt(), id, e.toString()));
    }
  }

  private int slotsUsedBy(ControlMessages.DeployTasks deploy) {
    Map<String, Integer> subtasksByTask = new java.util.HashMap<>();
    for (ControlMessages.SubtaskPlacement placement : deploy.placements()) {
      if (placement.taskManagerId().equals(id)) {
        subtasksByTask.merge(placement.vertexId(), 1, Integer::sum);
      }
    }
    return subtasksByTask.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** Releases an attempt whose subtasks all terminated. */
  private void release(TaskManagerAttempt attempt) {
    try {
      if (attempts.remove(attempt.id(), attempt)) {
        slotsInUse.remove(attempt.id());
        attempt.releaseTerminated();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private interface AttemptAction {
    void apply(TaskManagerAttempt attempt) throws InterruptedException;
  }

  private void withAttempt(AttemptId id, AttemptAction action) throws InterruptedException {
    TaskManagerAttempt attempt = attempts.get(id);
    if (attempt != null) {
      action.apply(attempt);
    }
  }

  /**
   * Hands an enumerator's splits, or the end of them, to the attempt's source subtask. What reaches
   * no subtask here (the attempt is not here, or not this subtask of it) is reported as that
   * subtask's failure, never only logged: the job manager fails the attempt if it is still the
   * current one, and its enumerator starts again from the last checkpoint, which its readers hold.
   *
   * @param what what is handed over, for the error: "Splits assigned to"
   */
  private void toSourceSubtask(
      AttemptId attemptId, SubtaskKey subtask, String what, Consumer<TaskManagerAttempt> handOver) {
    TaskManagerAttempt attempt = attempts.get(attemptId);
    try {
      if (attempt == null) {
        throw new IllegalStateException(
            what
                + " subtask "
                + subtask.subtaskIndex()
                + " of "
                + subtask.taskId()
                + " reached task manager "
                + id
                + ", which does not run "
                + attemptId);
      }
      handOver.accept(attempt);
    } catch (RuntimeException e) {
      LOG.error("Task manager {} cannot hand over splits: {}", id, e.getMessage());
      new RemoteJobManager(attemptId, id, jobManager).taskFailed(subtask, subtask.taskId(), e);
    }
  }

  private void cancelAll() {
    for (AttemptId attemptId : attempts.keySet()) {
      try {
        slotsInUse.remove(attemptId);
        attempts.remove(attemptId).cancel();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    heartbeatTimer.shutdownNow();
    control.shutdownNow();
    cancels.shutdownNow();
    cancelAll();
    if (jobManager != null) {
      jobManager.close();
    }
    if (dataServer != null) {
      dataServer.close();
    }
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    snapshotIo.shutdownNow();
    jars.deleteAll();
    ended.countDown();
  }

  private static ExecutorService singleThread(String name) {
    return Executors.newSingleThreadExecutor(daemon(name));
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
