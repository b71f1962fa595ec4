package io.weir.api.state;

import io.weir.api.annotation.Public;

/**
 * Keyed state, scoped to the key of the current record. Available only to functions that run
 * directly after a {@code keyBy}; elsewhere each method throws {@link IllegalStateException}.
 * Values are kept by the job's {@link StateBackend} and serialized by the descriptor's serializer:
 * in a checkpoint on the heap backend, on every access with RocksDB. The default serializer falls
 * back to Java serialization for types other than the common ones, which must then be {@link
 * java.io.Serializable}.
 */
@Public
public interface KeyedStateStore {
  <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor);

  <T> ListState<T> getListState(ListStateDescriptor<T> descriptor);

  <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor);

  <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor);
}
