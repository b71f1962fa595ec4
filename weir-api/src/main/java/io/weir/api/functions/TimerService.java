package io.weir.api.functions;

/**
 * Timers of the current key. A timer fires once, on the task thread, when event time (the
 * watermark) or processing time passes its timestamp. Registering the same time twice for a key
 * gives one timer. Timers are part of the checkpoint.
 */
public interface TimerService {
  long currentProcessingTime();

  long currentWatermark();

  void registerEventTimeTimer(long time);

  void registerProcessingTimeTimer(long time);

  void deleteEventTimeTimer(long time);

  void deleteProcessingTimeTimer(long time);
}
