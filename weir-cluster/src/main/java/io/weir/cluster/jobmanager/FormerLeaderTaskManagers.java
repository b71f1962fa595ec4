package io.weir.cluster.jobmanager;

import io.weir.cluster.ha.JobManagerHighAvailability;
import io.weir.cluster.ha.LeaderEpoch;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a new leader waits for before the first attempt of each job it recovers: the task managers
 * that the cluster's members listed when it took the leadership may still run subtasks of an
 * earlier leader's attempts, and their sinks' fences. Such a task manager cancels everything it
 * runs, fences included, before it takes its members' node away and registers with the new leader
 * under a new id; one cut off from ZooKeeper loses its node with its session.
 *
 * <p>So, per listed task manager: CONFIRMED once it is registered with this leader (it registers
 * only with nothing of an earlier leader running), GONE once its node is gone, RUNNING otherwise (a
 * failed read of the members is RUNNING too: the wait's bound covers a ZooKeeper that stays
 * unreachable).
 */
final class FormerLeaderTaskManagers implements AttemptEnding.Sightings {
  private static final Logger LOG = LoggerFactory.getLogger(FormerLeaderTaskManagers.class);

  private final Set<String> listed;
  private final TaskManagerRegistry registry;

  private FormerLeaderTaskManagers(Set<String> listed, TaskManagerRegistry registry) {
    this.listed = listed;
    this.registry = registry;
  }

  /**
   * The wait for the task managers {@code listedAtTakeover} (the members' ids read when {@code
   * term} began), shared by every job the leader recovers in that term.
   */
  static AttemptEnding ending(
      LeaderEpoch term,
      Set<String> listedAtTakeover,
      JobManagerHighAvailability highAvailability,
      TaskManagerRegistry registry) {
    return new AttemptEnding(
        "the attempts of the leaders before epoch " + term.epoch(),
        null,
        listedAtTakeover,
        () -> new FormerLeaderTaskManagers(listedNow(highAvailability), registry),
        registry.clock());
  }

  private static Set<String> listedNow(JobManagerHighAvailability highAvailability) {
    try {
      return highAvailability.listedTaskManagers();
    } catch (Exception e) {
      LOG.warn("Cannot read the cluster's task managers: {}", e.toString());
      return null;
    }
  }

  /** Not known: a former leader heard the task manager's heartbeats, not this one. */
  @Override
  public long quietAfterMillis(String taskManagerId) {
    return 0;
  }

  @Override
  public AttemptEnding.Ending of(String taskManagerId) {
    if (registry.get(taskManagerId) != null) {
      return AttemptEnding.Ending.CONFIRMED;
    }
    if (listed == null || listed.contains(taskManagerId)) {
      return AttemptEnding.Ending.RUNNING;
    }
    return AttemptEnding.Ending.GONE;
  }
}
