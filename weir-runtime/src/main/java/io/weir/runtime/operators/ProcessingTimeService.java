package io.weir.runtime.operators;

/** Processing time of a task, and callbacks on the task's thread when it passes a time. */
public interface ProcessingTimeService {
  long currentTime();

  /** Runs {@code callback} on the task thread once processing time reached {@code time}. */
  void schedule(long time, Callback callback);

  /** A processing-time callback. */
  @FunctionalInterface
  interface Callback {
    void onProcessingTime(long time) throws Exception;
  }
}
