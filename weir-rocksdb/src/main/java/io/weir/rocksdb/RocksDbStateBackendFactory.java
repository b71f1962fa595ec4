package io.weir.rocksdb;

import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.checkpoint.storage.StateFileListings;
import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedStateBackendFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Makes {@link RocksDbKeyedStateBackend}s; found by the runtime under the name {@code rocksdb}. */
public final class RocksDbStateBackendFactory implements KeyedStateBackendFactory {
  private static final Logger LOG = LoggerFactory.getLogger(RocksDbStateBackendFactory.class);

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
              RocksDbRestore.handlesOf(
                  context.restored().keyGroups(), context.restored().location()),
              context.range(),
              database);
    } catch (Exception e) {
      Directories.deleteRecursively(workingDirectory);
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
            context.snapshotFiles(),
            id -> inProcess(context, id),
            workingDirectory.resolve("checkpoints"),
            restored.baseline(),
            completed -> pruneInProcess(context, completed));
    return new RocksDbKeyedStateBackend(
        instance,
        context.range(),
        context.maxParallelism(),
        workingDirectory,
        snapshots,
        context.operatorUid());
  }

  /**
   * Where checkpoints kept in memory put their files: checkpoints that do not outlive the process
   * keep their files under its local directory, deleted with it when the next process starts.
   */
  private static SnapshotFiles inProcess(KeyedBackendContext context, long checkpointId) {
    Path job = inProcessJobDirectory(context);
    return new SnapshotFiles(
        CheckpointLayout.sharedDirectory(job),
        true,
        job.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId)));
  }

  private static Path inProcessJobDirectory(KeyedBackendContext context) {
    return LocalWorkingDirectories.processDirectory()
        .resolve("in-memory-checkpoints")
        .resolve(LocalWorkingDirectories.safe(context.jobName()));
  }

  /**
   * A restart in this process resumes from the newest completed checkpoint, so once checkpoint
   * {@code completed} is complete the files only older ones listed can go, as a job's checkpoint
   * directory prunes them.
   */
  private static void pruneInProcess(KeyedBackendContext context, long completed) {
    Path job = inProcessJobDirectory(context);
    if (!Files.isDirectory(job)) {
      return;
    }
    try {
      for (Path checkpoint : CheckpointLayout.checkpointDirectoriesNewestFirst(job)) {
        if (CheckpointLayout.checkpointIdOf(checkpoint).getAsLong() < completed) {
          Directories.deleteRecursively(checkpoint);
        }
      }
    } catch (IOException e) {
      LOG.warn("Could not delete old in-process checkpoint files in {}: {}", job, e.toString());
      return;
    }
    StateFileListings.deleteUnreferenced(job);
  }
}
