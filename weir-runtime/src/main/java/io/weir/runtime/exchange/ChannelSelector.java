package io.weir.runtime.exchange;

import io.weir.api.functions.KeySelector;
import io.weir.runtime.state.KeyGroups;

/** Picks the downstream subtask of a record. One instance per sending subtask and edge. */
public interface ChannelSelector {
  /** What {@link #select} returns for a record that goes to every downstream subtask. */
  int ALL_CHANNELS = -1;

  /** The downstream subtask of the record, or {@link #ALL_CHANNELS}. */
  int select(Object record) throws Exception;

  static ChannelSelector broadcast() {
    return record -> ALL_CHANNELS;
  }

  static ChannelSelector forward(int subtaskIndex) {
    return record -> subtaskIndex;
  }

  static ChannelSelector rebalance(int subtaskIndex, int targets) {
    return new ChannelSelector() {
      private int next = subtaskIndex % targets;

      @Override
      public int select(Object record) {
        int selected = next;
        next = next + 1 == targets ? 0 : next + 1;
        return selected;
      }
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static ChannelSelector byKeyGroup(KeySelector keySelector, int maxParallelism, int targets) {
    return record -> {
      Object key = keySelector.getKey(record);
      if (key == null) {
        throw new NullPointerException("The key selector returned null for " + record);
      }
      return KeyGroups.subtaskOfKey(key, maxParallelism, targets);
    };
  }
}
