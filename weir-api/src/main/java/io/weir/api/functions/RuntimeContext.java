package io.weir.api.functions;

import io.weir.api.annotation.Public;
import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.state.KeyedStateStore;

/** What a running function may know about where it runs, and its keyed state. */
@Public
public interface RuntimeContext extends KeyedStateStore {
  String jobName();

  String operatorName();

  /**
   * The operator's uid: the one the job set, else the stable id made from the operator's place in
   * the job (the same on every run of the same job code). Contexts that run a function outside a
   * job may answer with the operator's name.
   */
  default String operatorUid() {
    return operatorName();
  }

  int subtaskIndex();

  int parallelism();

  int maxParallelism();

  /** The attempt of this subtask: 0 on the first run, incremented by every restart. */
  int attempt();

  /**
   * The lease this run holds on the job's checkpoint directory, as a fencing token: a sink that
   * records it in its external system when the job recovers it refuses the commits and aborts of an
   * older run ({@link io.weir.api.datastream.StaleLeaseEpochException}). {@link LeaseEpoch#NONE}
   * without a lease (checkpoints in memory, a cluster's task manager, whose job manager fences) and
   * by default.
   */
  default LeaseEpoch leaseEpoch() {
    return LeaseEpoch.NONE;
  }

  /**
   * What watches this subtask's two-phase commits (the runtime's failpoints, or a test harness);
   * {@link CommitObserver#NONE} by default.
   */
  default CommitObserver commitObserver() {
    return CommitObserver.NONE;
  }

  /** Where this subtask's function adds gauges of its own; {@link MetricGroup#NONE} by default. */
  default MetricGroup metricGroup() {
    return MetricGroup.NONE;
  }
}
