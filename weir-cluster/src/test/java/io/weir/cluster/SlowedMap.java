package io.weir.cluster;

import io.weir.api.functions.MapFunction;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Passes each record on after a pause, so that the task it runs in (chained to a sink) is slower
 * than its input and records queue in front of it: a slow sink.
 */
final class SlowedMap<T> implements MapFunction<T, T> {
  private final long nanosPerRecord;

  SlowedMap(long microsPerRecord) {
    this.nanosPerRecord = TimeUnit.MICROSECONDS.toNanos(microsPerRecord);
  }

  @Override
  public T map(T record) {
    LockSupport.parkNanos(nanosPerRecord);
    return record;
  }
}
