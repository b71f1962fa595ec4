package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;
import java.util.function.DoubleSupplier;

/**
 * Where a function shows figures of its own to the job's observers (the metrics endpoint, the REST
 * API), beside the records every operator counts: gauges, read whenever an observer asks. One per
 * operator subtask, from {@link RuntimeContext#metricGroup()}.
 */
@PublicEvolving
public interface MetricGroup {
  /** Keeps nothing: the group of a function run outside a job, as in a test. */
  MetricGroup NONE = (name, value) -> {};

  /**
   * Adds a gauge, or replaces the one of the same name. Observers read it from their own threads,
   * so {@code value} must be safe to call from any thread and must not block; a value that is not a
   * number (NaN) is left out of what they see.
   *
   * @param name lower-case letters, digits and underscores, starting with a letter and not ending
   *     in a suffix Prometheus keeps for counters and histograms ({@code _total}, {@code _created},
   *     {@code _bucket}, {@code _info}, {@code _count}, {@code _sum}); the metrics endpoint shows
   *     it as {@code weir_operator_<name>}
   * @throws IllegalArgumentException when the name is not of that form
   */
  void gauge(String name, DoubleSupplier value);
}
