package io.weir.api.state;

import io.weir.api.annotation.PublicEvolving;

/** The state backends a job can choose with {@code StreamEnvironment.setStateBackend}. */
@PublicEvolving
public final class StateBackends {
  private StateBackends() {}

  /** Keyed state in hash maps on the heap, written whole into every checkpoint (the default). */
  public static StateBackend heap() {
    return new StateBackend("heap");
  }

  /**
   * Keyed state in an embedded RocksDB on local disk, so it may be larger than the heap;
   * checkpoints upload only the files the previous checkpoint did not have. Needs the {@code
   * weir-rocksdb} module on the class path. Without a checkpoint directory the files of the newest
   * checkpoints are kept in the process's local RocksDB directory, which goes with the process.
   */
  public static StateBackend rocksdb() {
    return new StateBackend("rocksdb");
  }
}
