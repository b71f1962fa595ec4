package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ha.ClusterMembers;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.ha.LeaderLookup;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task manager of a highly available cluster: offers its slots to the leader ZooKeeper names,
 * leaves it for each newer leader (ZooKeeper tells it; messages of the older epoch are refused from
 * then on) or when it stops answering, and registers with the next one. It keeps its node among the
 * cluster's members with its slots in use, for {@code weir cluster status}, and takes it away only
 * once everything it ran for a leader ended, its sinks' fences included: a new leader deploys the
 * jobs it recovers only after the nodes it found when it took over are gone or registered with it.
 */
final class LeaderFollower {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderFollower.class);
  private static final long RETRY_PAUSE_MILLIS = 200;

  private final ClusterZooKeeper zooKeeper;
  private final Function<HostAndPort, TaskManagerOptions> options;
  private final Duration giveUpAfter;
  private final Duration newLeaderWait;
  private final AtomicReference<TaskManager> current = new AtomicReference<>();
  private final Object membershipLock = new Object();

  LeaderFollower(
      ClusterZooKeeper zooKeeper,
      Function<HostAndPort, TaskManagerOptions> options,
      Duration giveUpAfter,
      Duration newLeaderWait) {
    this.zooKeeper = zooKeeper;
    this.options = options;
    this.giveUpAfter = giveUpAfter;
    this.newLeaderWait = newLeaderWait;
  }

  /** Runs until interrupted, or fails when no leader takes its slots for {@code giveUpAfter}. */
  void run() throws InterruptedException {
    LeaderLookup lookup = new LeaderLookup(zooKeeper);
    ClusterMembers members = new ClusterMembers(zooKeeper);
    ScheduledExecutorService membership =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "weir membership");
              thread.setDaemon(true);
              return thread;
            });
    membership.scheduleWithFixedDelay(() -> register(members), 0, 1, TimeUnit.SECONDS);
    try (AutoCloseable watch = lookup.watch(this::leaderChanged)) {
      long minimumEpoch = 0;
      boolean lost = false;
      while (true) {
        LeaderInfo leader = next(lookup, minimumEpoch, lost);
        lost = false;
        Optional<TaskManager> started = start(leader);
        if (started.isEmpty()) {
          Thread.sleep(RETRY_PAUSE_MILLIS);
          continue;
        }
        TaskManager taskManager = started.get();
        minimumEpoch = leader.epoch();
        current.set(taskManager);
        // A leader elected while this one connected was not seen by the watch.
        lookup.current().ifPresent(this::leaderChanged);
        System.out.printf(
            "task manager %s offers %d slots to the leader at %s (epoch %d)%n",
            taskManager.id(),
            options.apply(leader.address()).slots(),
            leader.address(),
            leader.epoch());
        taskManager.awaitEnd();
        synchronized (membershipLock) {
          current.set(null);
        }
        taskManager.close();
        System.out.println("lost the leader at " + leader.address() + "; looking for the next one");
        // Only now, with its tasks and their fences ended: a new leader waits for this node to go.
        members.unregisterTaskManager(taskManager.id());
        lost = true;
      }
    } catch (InterruptedException | UserError e) {
      throw e;
    } catch (Exception e) {
      throw new UserError("ZooKeeper failed the task manager: " + e.getMessage(), e);
    } finally {
      membership.shutdownNow();
    }
  }

  /**
   * The leader to register with. After losing one, a newer leader is waited for first, for as long
   * as ZooKeeper keeps a silent leader's session: a dead or frozen leader stays named until then,
   * and a frozen one would hold the registration until its handshake timed out.
   */
  private LeaderInfo next(LeaderLookup lookup, long minimumEpoch, boolean lost) throws Exception {
    if (lost) {
      LOG.info("Looking for a leader newer than epoch {}", minimumEpoch);
      try {
        return found(lookup.await(minimumEpoch + 1, newLeaderWait));
      } catch (IllegalStateException e) {
        // No newer leader: the same one is back (the connection broke, not the leader).
        LOG.info(
            "No leader newer than epoch {} within {} s", minimumEpoch, newLeaderWait.toSeconds());
      }
    }
    return found(ClusterHighAvailability.leader(zooKeeper, minimumEpoch, giveUpAfter));
  }

  private static LeaderInfo found(LeaderInfo leader) {
    LOG.info("The leader is at {} (epoch {}): registering", leader.address(), leader.epoch());
    return leader;
  }

  private Optional<TaskManager> start(LeaderInfo leader) throws InterruptedException {
    try {
      return Optional.of(TaskManager.start(options.apply(leader.address()), leader.epoch()));
    } catch (ClusterConnectException e) {
      if (e.isRefusal()) {
        throw new UserError(e.getMessage(), e);
      }
      // Not listening yet, or gone again: ZooKeeper will name the next leader.
      return Optional.empty();
    }
  }

  private void leaderChanged(LeaderInfo leader) {
    TaskManager taskManager = current.get();
    if (taskManager != null) {
      taskManager.leaderChanged(leader.epoch());
    }
  }

  /**
   * Under the lock that clears {@link #current}: a registration that read a task manager before it
   * ended must not write its node again after the node was taken away.
   */
  private void register(ClusterMembers members) {
    synchronized (membershipLock) {
      maybeRegister(members);
    }
  }

  private void maybeRegister(ClusterMembers members) {
    TaskManager taskManager = current.get();
    if (taskManager == null) {
      return;
    }
    try {
      members.registerTaskManager(
          new ClusterMembers.TaskManagerMember(
              taskManager.id(),
              taskManager.dataAddress(),
              ProcessHandle.current().pid(),
              options.apply(taskManager.dataAddress()).slots(),
              taskManager.slotsInUse()));
    } catch (Exception e) {
      // The next round tries again; membership is only for the status listing.
    }
  }
}
