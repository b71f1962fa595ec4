package io.weir.api.state;

/**
 * Keyed state, scoped to the key of the current record. Available only to functions that run
 * directly after a {@code keyBy}; elsewhere each method throws {@link IllegalStateException}.
 * Values are kept on the heap and serialized with Java serialization in a checkpoint, so they must
 * be {@link java.io.Serializable}.
 */
public interface KeyedStateStore {
  <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor);

  <T> ListState<T> getListState(ListStateDescriptor<T> descriptor);

  <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor);

  <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor);
}
