package io.weir.api.eventtime;

import io.weir.api.annotation.Public;

/** Emits the largest timestamp seen minus the bound, minus one. */
@Public
public final class BoundedOutOfOrdernessWatermarks<T> implements WatermarkGenerator<T> {
  private final long outOfOrdernessMillis;
  private long maxTimestamp;

  public BoundedOutOfOrdernessWatermarks(long outOfOrdernessMillis) {
    if (outOfOrdernessMillis < 0) {
      throw new IllegalArgumentException("The out-of-orderness bound must not be negative");
    }
    this.outOfOrdernessMillis = outOfOrdernessMillis;
    this.maxTimestamp = Long.MIN_VALUE + outOfOrdernessMillis + 1;
  }

  @Override
  public void onEvent(T event, long timestamp, WatermarkOutput output) {
    maxTimestamp = Math.max(maxTimestamp, timestamp);
  }

  @Override
  public void onPeriodicEmit(WatermarkOutput output) {
    output.emitWatermark(maxTimestamp - outOfOrdernessMillis - 1);
  }
}
