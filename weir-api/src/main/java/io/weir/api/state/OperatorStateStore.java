package io.weir.api.state;

/**
 * State of one parallel subtask, not of a key. On restore with another parallelism a list state is
 * split evenly over the new subtasks, and a union list state is given whole to every subtask.
 */
public interface OperatorStateStore {
  <T> ListState<T> getListState(ListStateDescriptor<T> descriptor);

  <T> ListState<T> getUnionListState(ListStateDescriptor<T> descriptor);
}
