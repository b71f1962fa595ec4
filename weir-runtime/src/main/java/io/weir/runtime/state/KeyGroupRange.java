package io.weir.runtime.state;

/** The key groups {@code [start, end]} that one subtask of a keyed operator owns. */
public record KeyGroupRange(int start, int end) {
  public boolean contains(int keyGroup) {
    return keyGroup >= start && keyGroup <= end;
  }

  public int size() {
    return end - start + 1;
  }
}
