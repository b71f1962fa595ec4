package io.weir.api.eventtime;

import io.weir.api.annotation.Public;
import io.weir.api.functions.Function;
import java.io.Serializable;
import java.time.Duration;

/**
 * How a stream gets event timestamps and watermarks: a generator per subtask, a timestamp assigner,
 * and an optional idleness timeout after which a silent subtask stops holding back event time.
 */
@Public
public final class WatermarkStrategy<T> implements Serializable {

  /** Makes a fresh generator for each subtask. */
  @FunctionalInterface
  public interface GeneratorSupplier<T> extends Function {
    WatermarkGenerator<T> create();
  }

  private final GeneratorSupplier<T> generatorSupplier;
  private final TimestampAssigner<T> timestampAssigner;
  private final Duration idleTimeout;

  private WatermarkStrategy(
      GeneratorSupplier<T> generatorSupplier,
      TimestampAssigner<T> timestampAssigner,
      Duration idleTimeout) {
    this.generatorSupplier = generatorSupplier;
    this.timestampAssigner = timestampAssigner;
    this.idleTimeout = idleTimeout;
  }

  public static <T> WatermarkStrategy<T> forBoundedOutOfOrderness(Duration maxOutOfOrderness) {
    long bound = maxOutOfOrderness.toMillis();
    return forGenerator(() -> new BoundedOutOfOrdernessWatermarks<>(bound));
  }

  /** Timestamps only grow: the watermark is the largest timestamp seen, minus one. */
  public static <T> WatermarkStrategy<T> forMonotonousTimestamps() {
    return forGenerator(() -> new BoundedOutOfOrdernessWatermarks<>(0));
  }

  public static <T> WatermarkStrategy<T> forGenerator(GeneratorSupplier<T> supplier) {
    return new WatermarkStrategy<>(supplier, (element, previous) -> previous, null);
  }

  /** Timestamps but no watermarks. */
  public static <T> WatermarkStrategy<T> noWatermarks() {
    return forGenerator(NoWatermarks::new);
  }

  public WatermarkStrategy<T> withTimestampAssigner(TimestampAssigner<T> assigner) {
    return new WatermarkStrategy<>(generatorSupplier, assigner, idleTimeout);
  }

  public WatermarkStrategy<T> withIdleness(Duration timeout) {
    return new WatermarkStrategy<>(generatorSupplier, timestampAssigner, timeout);
  }

  public WatermarkGenerator<T> createWatermarkGenerator() {
    return generatorSupplier.create();
  }

  public TimestampAssigner<T> timestampAssigner() {
    return timestampAssigner;
  }

  /** The idleness timeout, or null for none. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  private static final class NoWatermarks<T> implements WatermarkGenerator<T> {
    @Override
    public void onEvent(T event, long timestamp, WatermarkOutput output) {}

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}
  }
}
