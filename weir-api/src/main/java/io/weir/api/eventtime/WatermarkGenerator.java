package io.weir.api.eventtime;

import io.weir.api.annotation.Public;
import java.io.Serializable;

/**
 * Makes watermarks from the records it sees. Called on the task thread: {@link #onEvent} for each
 * record, {@link #onPeriodicEmit} at the job's auto-watermark interval (200 ms by default).
 */
@Public
public interface WatermarkGenerator<T> extends Serializable {
  void onEvent(T event, long timestamp, WatermarkOutput output);

  void onPeriodicEmit(WatermarkOutput output);
}
