package io.weir.lab.nemesis;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Where the nemesis lab runs its job, each process on a host of its own. */
public enum NemesisDeployment {
  /** One local job process ({@code weir run}) on the host {@code job}. */
  LOCAL_JOB,
  /**
   * A highly available cluster: ZooKeeper, two job managers electing a leader, three task managers.
   */
  HA_CLUSTER;

  private static final Set<FaultKind> CLUSTER_KINDS = Set.of(FaultKind.ZOMBIE, FaultKind.LEADER);

  /**
   * The cluster's stall bound is twice the local job's: after a leader change or a lost task
   * manager the job restarts on every task manager (each builds the job's graph, opens its sources
   * and recovers its sink's transactions) over TLS, where a local job restarts in one process.
   * Still far below the sink's transaction timeout.
   */
  private static final Duration CLUSTER_STALL_BOUND = NemesisLab.STALL_BOUND.multipliedBy(2);

  /** The fault kinds that apply to this deployment: the cluster's own only to the cluster. */
  public List<FaultKind> faultKinds() {
    return FaultKind.all().stream().filter(this::applies).toList();
  }

  /** Whether a fault of {@code kind} can be injected into this deployment. */
  public boolean applies(FaultKind kind) {
    return this == HA_CLUSTER || !CLUSTER_KINDS.contains(kind);
  }

  /** The longest the committed output may stay still after a fault healed. */
  public Duration stallBound() {
    return this == HA_CLUSTER ? CLUSTER_STALL_BOUND : NemesisLab.STALL_BOUND;
  }

  /** The hosts the job's processes run on. */
  List<String> hostNames() {
    return this == HA_CLUSTER ? NemesisCluster.hostNames() : List.of(NemesisTopology.JOB_HOST);
  }
}
