package io.weir.api.state;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.List;

/**
 * Where a job keeps its keyed state: on the heap (the default, for state that fits in memory) or in
 * an embedded RocksDB per keyed operator and subtask (for state larger than memory, with
 * incremental checkpoints). Made by {@link StateBackends}; the runtime finds the implementation by
 * its {@link #name()}, so the API depends on neither.
 *
 * @param name {@code heap} or {@code rocksdb}
 */
@PublicEvolving
public record StateBackend(String name) implements Serializable {
  /** The names {@link #named} accepts. */
  public static final List<String> NAMES = List.of("heap", "rocksdb");

  public StateBackend {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException(
          "Unknown state backend '" + name + "'; known: " + String.join(", ", NAMES));
    }
  }

  /** The backend called {@code name}, as the command line's {@code --state-backend} gives it. */
  public static StateBackend named(String name) {
    return new StateBackend(name);
  }

  public boolean isHeap() {
    return name.equals("heap");
  }
}
