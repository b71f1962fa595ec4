package io.weir.runtime.state;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The keyed state of one heap backend at a barrier, as its snapshot writes it: each table's key
 * groups' maps and the typed states' codecs, in the {@link HeapKeyGroupFormat}. Nothing in it
 * changes after it is made (the tables copy on write meanwhile), so the snapshot thread may write
 * it while the task thread goes on.
 */
final class FrozenHeapState implements HeapSnapshotFiles.KeyGroupSource {
  private final KeyGroupRange range;
  private final Map<String, HashMap<Object, Object>[]> tables;
  private final TypedStates.Frozen typedStates;

  /** How many key groups, from the first of the range, the writer no longer reads. */
  private volatile int keyGroupsWritten;

  /**
   * @param tables each table's key groups' maps by state name, in the order the states were made
   */
  FrozenHeapState(
      KeyGroupRange range,
      Map<String, HashMap<Object, Object>[]> tables,
      TypedStates.Frozen typedStates) {
    this.range = range;
    this.tables = tables;
    this.typedStates = typedStates;
  }

  @Override
  public void writeTo(HeapSnapshotFiles.KeyGroupSink sink) throws IOException {
    KeyGroupWriter writer = new KeyGroupWriter();
    for (int index = 0; index < range.size(); index++) {
      for (Map.Entry<String, HashMap<Object, Object>[]> table : tables.entrySet()) {
        String name = table.getKey();
        HashMap<Object, Object> group = table.getValue()[index];
        if (group.isEmpty()) {
          continue;
        }
        if (typedStates.isTyped(name)) {
          typedStates.snapshot(name, group, writer);
        } else {
          writer.objectState(name, group);
        }
      }
      typedStates.snapshotUndeclared(index, writer);
      if (!writer.isEmpty()) {
        sink.keyGroupWritten(range.start() + index, writer);
      }
      keyGroupsWritten = index + 1;
    }
  }

  /**
   * How many key groups, from the first of the range, {@link #writeTo} has written: it reads
   * nothing of them any more, so the task thread may change their maps and values in place. On any
   * thread.
   */
  int keyGroupsWritten() {
    return keyGroupsWritten;
  }
}
