package io.weir.testing;

/**
 * One record an operator emitted, with its timestamp ({@link Long#MIN_VALUE} when it has none).
 *
 * @param value the record
 * @param timestamp its event time, or {@link Long#MIN_VALUE}
 */
public record Timestamped<T>(T value, long timestamp) {}
