package io.weir.runtime.state;

import io.weir.api.state.StateBackend;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.LongFunction;

/**
 * The one place where a job's choice of state backend becomes the backend of each keyed operator:
 * the heap built in, others found with {@link ServiceLoader} by name, so that the runtime does not
 * depend on their modules.
 */
public final class KeyedStateBackends {
  private final KeyedStateBackendFactory factory;
  private final String jobName;
  private final LongFunction<Optional<SnapshotFiles>> snapshotFiles;

  private KeyedStateBackends(
      KeyedStateBackendFactory factory,
      String jobName,
      LongFunction<Optional<SnapshotFiles>> snapshotFiles) {
    this.factory = factory;
    this.jobName = jobName;
    this.snapshotFiles = snapshotFiles;
  }

  /** Heap backends; for harnesses that drive operators without a checkpoint storage. */
  public static KeyedStateBackends heap() {
    return new KeyedStateBackends(new HeapKeyedStateBackendFactory(), "", id -> Optional.empty());
  }

  /**
   * The backends of {@code choice} for job {@code jobName}, whose checkpoint files go where {@code
   * snapshotFiles} says. Throws, naming the backend, when its module is not on the class path.
   */
  public static KeyedStateBackends forJob(
      StateBackend choice, String jobName, LongFunction<Optional<SnapshotFiles>> snapshotFiles) {
    return new KeyedStateBackends(factoryNamed(choice.name()), jobName, snapshotFiles);
  }

  public String name() {
    return factory.name();
  }

  /** The backend of one keyed operator's subtask, with its share of the restored state. */
  public KeyedStateBackend create(
      String operatorUid,
      int subtaskIndex,
      KeyGroupRange range,
      int maxParallelism,
      OperatorSubtaskState restored)
      throws Exception {
    return factory.create(
        new KeyedBackendContext(
            jobName, operatorUid, subtaskIndex, range, maxParallelism, restored, snapshotFiles));
  }

  private static KeyedStateBackendFactory factoryNamed(String name) {
    if (name.equals("heap")) {
      return new HeapKeyedStateBackendFactory();
    }
    for (KeyedStateBackendFactory candidate :
        ServiceLoader.load(
            KeyedStateBackendFactory.class, KeyedStateBackends.class.getClassLoader())) {
      if (candidate.name().equals(name)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "The state backend '"
            + name
            + "' is not on the class path: add the weir-"
            + name
            + " module to the job's dependencies");
  }
}
