package io.weir.runtime.state;

/**
 * Makes the keyed state backend of one keyed operator in one subtask. Implementations of other
 * modules (RocksDB) are found with {@link java.util.ServiceLoader} by {@link #name()}; see {@link
 * KeyedStateBackends}. Called on the task thread while the task starts.
 */
public interface KeyedStateBackendFactory {
  /** The name a job chooses it by: {@code heap}, {@code rocksdb}. */
  String name();

  /**
   * A backend holding {@code context.range()} of the key groups, with the restored state's key
   * groups in it. Throws when the restored state cannot be read, naming the file or checkpoint.
   */
  KeyedStateBackend create(KeyedBackendContext context) throws Exception;
}
