package io.weir.api.state;

import io.weir.api.annotation.Public;

/**
 * State of one parallel subtask, not of a key. On restore with another parallelism a list state is
 * split evenly over the new subtasks, and a union list state is given whole to every subtask.
 */
@Public
public interface OperatorStateStore {
  <T> ListState<T> getListState(ListStateDescriptor<T> descriptor);

  <T> ListState<T> getUnionListState(ListStateDescriptor<T> descriptor);
}
