package io.weir.runtime.task;

import java.util.Arrays;

/**
 * Combines the watermarks of a task's input channels: event time is the minimum over the channels
 * that are not idle, and only moves forward. When every channel is idle, the task is idle.
 */
final class WatermarkValve {
  /** What the valve decided after an input. */
  interface Listener {
    void onWatermark(long watermark) throws Exception;

    void onIdle(boolean idle) throws Exception;
  }

  private final long[] watermarks;
  private final boolean[] idle;
  private final Listener listener;
  private long current = Long.MIN_VALUE;
  private boolean allIdle;

  WatermarkValve(int channels, Listener listener) {
    this.watermarks = new long[channels];
    this.idle = new boolean[channels];
    this.listener = listener;
    Arrays.fill(watermarks, Long.MIN_VALUE);
  }

  void onWatermark(int channel, long watermark) throws Exception {
    if (watermark > watermarks[channel]) {
      watermarks[channel] = watermark;
    }
    if (idle[channel]) {
      onStatus(channel, false);
    }
    maybeAdvance();
  }

  void onStatus(int channel, boolean channelIdle) throws Exception {
    idle[channel] = channelIdle;
    boolean nowAllIdle = true;
    for (boolean each : idle) {
      nowAllIdle &= each;
    }
    if (nowAllIdle != allIdle) {
      allIdle = nowAllIdle;
      listener.onIdle(allIdle);
    }
    if (!channelIdle || !allIdle) {
      maybeAdvance();
    }
  }

  private void maybeAdvance() throws Exception {
    long min = Long.MAX_VALUE;
    boolean any = false;
    for (int i = 0; i < watermarks.length; i++) {
      if (!idle[i]) {
        min = Math.min(min, watermarks[i]);
        any = true;
      }
    }
    if (any && min > current) {
      current = min;
      listener.onWatermark(min);
    }
  }
}
