package io.weir.runtime.state;

/** Makes {@link HeapKeyedStateBackend}s: the default backend. */
public final class HeapKeyedStateBackendFactory implements KeyedStateBackendFactory {
  @Override
  public String name() {
    return "heap";
  }

  @Override
  public KeyedStateBackend create(KeyedBackendContext context) {
    return new HeapKeyedStateBackend(
        context.operatorUid(),
        context.range(),
        context.maxParallelism(),
        context.restored(),
        new HeapSnapshotFiles(
            context.operatorUid(), context.subtaskIndex(), context.snapshotFiles()));
  }
}
