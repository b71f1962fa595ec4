package io.weir.nexmark.flink;

import org.apache.flink.api.common.functions.AggregateFunction;

/** Counts a window's records. */
final class CountRecords<T> implements AggregateFunction<T, Long, Long> {
  @Override
  public Long createAccumulator() {
    return 0L;
  }

  @Override
  public Long add(T record, Long count) {
    return count + 1;
  }

  @Override
  public Long getResult(Long count) {
    return count;
  }

  @Override
  public Long merge(Long a, Long b) {
    return a + b;
  }
}
