package io.weir.rocksdb;

import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedStateBackendFactory;
import java.nio.file.Path;

/** Makes {@link RocksDbKeyedStateBackend}s; found by the runtime under the name {@code rocksdb}. */
public final class RocksDbStateBackendFactory implements KeyedStateBackendFactory {
  @Override
  public String name() {
    return "rocksdb";
  }

  @Override
  public KeyedStateBackend create(KeyedBackendContext context) throws Exception {
    Path workingDirectory =
        LocalWorkingDirectories.create(
            context.jobName(), context.operatorUid(), context.subtaskIndex());
    Path database = workingDirectory.resolve("db");
    RocksDbInstance instance;
    try {
      instance =
          RocksDbRestore.restore(
              RocksDbRestore.handlesOf(context.restored().keyGroups()), context.range(), database);
    } catch (Exception e) {
      LocalWorkingDirectories.deleteRecursively(workingDirectory);
      throw e;
    }
    String owner =
        "rocksdb-"
            + LocalWorkingDirectories.safe(context.operatorUid())
            + "-"
            + context.subtaskIndex();
    IncrementalSnapshots snapshots =
        new IncrementalSnapshots(
            instance,
            context.range(),
            owner,
            context.snapshotFiles(),
            workingDirectory.resolve("checkpoints"));
    return new RocksDbKeyedStateBackend(
        instance, context.range(), context.maxParallelism(), workingDirectory, snapshots);
  }
}
