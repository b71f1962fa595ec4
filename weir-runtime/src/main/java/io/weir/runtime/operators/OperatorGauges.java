package io.weir.runtime.operators;

import io.weir.api.functions.MetricGroup;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The gauges one operator subtask's function added, read by observers from their own threads. */
final class OperatorGauges implements MetricGroup {
  private static final Logger LOG = LoggerFactory.getLogger(OperatorGauges.class);
  // Suffixes Prometheus keeps for counters and histograms are left out: a gauge is neither.
  private static final Pattern NAME =
      Pattern.compile("(?![a-z0-9_]*_(total|created|bucket|info|count|sum)$)[a-z][a-z0-9_]*");
  // The names every operator's records already use at the metrics endpoint.
  private static final Set<String> TAKEN = Set.of("records_in", "records_out");

  private final Map<String, DoubleSupplier> gauges = new ConcurrentHashMap<>();

  @Override
  public void gauge(String name, DoubleSupplier value) {
    if (name == null || !NAME.matcher(name).matches() || TAKEN.contains(name)) {
      throw new IllegalArgumentException(
          "A gauge's name must be lower-case letters, digits and underscores, start with a letter,"
              + " not end in _total, _created, _bucket, _info, _count or _sum, and not be records_in"
              + " or records_out: "
              + name);
    }
    gauges.put(name, Objects.requireNonNull(value, "value"));
  }

  /** Each gauge's value now, by name; a gauge that throws or is not a number is left out. */
  Map<String, Double> values() {
    // Unordered: the subtask's view sorts them.
    Map<String, Double> values = new HashMap<>();
    gauges.forEach(
        (name, gauge) -> {
          try {
            double value = gauge.getAsDouble();
            if (!Double.isNaN(value)) {
              values.put(name, value);
            }
          } catch (RuntimeException e) {
            LOG.debug("Gauge {} could not be read", name, e);
          }
        });
    return values;
  }
}
