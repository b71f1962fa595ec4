package io.weir.api.eventtime;

import io.weir.api.annotation.Public;

/** Where a watermark generator emits. */
@Public
public interface WatermarkOutput {
  /** Event time has reached {@code watermark}: no record with a smaller timestamp should follow. */
  void emitWatermark(long watermark);

  /** This input holds back no watermark until it emits again. */
  void markIdle();
}
