package io.weir.rocksdb;

import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedStateBackendFactory;
import java.nio.file.Path;
import java.util.Optional;

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
    RocksDbRestore.Restored restored;
    try {
      restored =
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
    RocksDbInstance instance = restored.instance();
    IncrementalSnapshots snapshots =
        new IncrementalSnapshots(
            instance,
            context.range(),
            owner,
            id -> context.snapshotFiles().apply(id).or(() -> Optional.of(inProcess(context, id))),
            workingDirectory.resolve("checkpoints"),
            restored.baseline());
    return new RocksDbKeyedStateBackend(
        instance, context.range(), context.maxParallelism(), workingDirectory, snapshots);
  }

  /**
   * Where checkpoints kept in memory put their files: checkpoints that do not outlive the process
   * keep their files under its local directory, deleted with it when the next process starts.
   */
  private static SnapshotFiles inProcess(KeyedBackendContext context, long checkpointId) {
    Path job =
        LocalWorkingDirectories.processDirectory()
            .resolve("in-memory-checkpoints")
            .resolve(LocalWorkingDirectories.safe(context.jobName()));
    return new SnapshotFiles(job.resolve("shared"), true, job.resolve("chk-" + checkpointId));
  }
}
