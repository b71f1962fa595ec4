package io.weir.api.functions;

import io.weir.api.annotation.Public;

/**
 * Timers of the current key, for a {@code KeyedProcessFunction}. Called only from that function's
 * {@code processElement} and {@code onTimer}, on the task thread.
 *
 * <p>Firing rule: an event-time timer fires when a watermark {@code >=} its time reaches the
 * operator, before that watermark goes downstream; a processing-time timer fires once the task's
 * clock reaches its time. Either fires at most once, on the task thread, between records (never
 * concurrently with {@code processElement}), with its key as the current key; timers due at the
 * same time fire in time order, but in no promised order among keys. A timer registered for a time
 * already passed fires at the next watermark (event time) or as soon as the task gets to it
 * (processing time). Registering the same time twice for a key gives one timer; deleting a timer
 * that does not exist does nothing.
 *
 * <p>Timers are keyed state: they are part of every checkpoint and move with their key group on a
 * rescale. After a restore, a processing-time timer whose time passed while the job was down fires
 * as soon as the task runs; the current watermark starts again at {@link Long#MIN_VALUE}.
 */
@Public
public interface TimerService {
  /** The task's processing time, in epoch milliseconds. */
  long currentProcessingTime();

  /** The last watermark this operator received, {@link Long#MIN_VALUE} before the first. */
  long currentWatermark();

  void registerEventTimeTimer(long time);

  void registerProcessingTimeTimer(long time);

  void deleteEventTimeTimer(long time);

  void deleteProcessingTimeTimer(long time);
}
