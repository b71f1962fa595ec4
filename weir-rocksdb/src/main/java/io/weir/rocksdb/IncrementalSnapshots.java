package io.weir.rocksdb;

import io.weir.rocksdb.SnapshotHandle.StoredFile;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.StateFileListing;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.rocksdb.Checkpoint;
import org.rocksdb.RocksDBException;

/**
 * The checkpoints of one RocksDB backend. On the task thread, {@link #take} flushes the memtables
 * and makes a RocksDB checkpoint (hard links to the immutable SST files, a copy of the small ones)
 * and names the files it will store; on the snapshot thread, {@link #materialize} lists them in the
 * checkpoint's directory, then copies the new ones. An SST file already stored by the last
 * completed checkpoint of this backend is not copied again, only listed: RocksDB never changes an
 * SST file, and the listing keeps it from being deleted while a checkpoint needs it. Savepoints
 * copy every file into their own directory.
 */
final class IncrementalSnapshots {
  private final RocksDbInstance instance;
  private final KeyGroupRange range;
  private final String owner;
  private final LongFunction<Optional<SnapshotFiles>> storageTargets;
  private final LongFunction<SnapshotFiles> inProcessTargets;
  private final Path localCheckpoints;
  private final String instanceId = UUID.randomUUID().toString();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final Map<Long, Stored> storedByCheckpoint = new ConcurrentHashMap<>();
  private volatile Baseline lastCompleted;
  private final LongConsumer onCompleted;

  /**
   * The stored files a next checkpoint may refer to instead of storing them again.
   *
   * @param directory where they are stored
   * @param files by RocksDB's name
   */
  record Baseline(Path directory, Map<String, StoredFile> files) {
    static Baseline none() {
      return new Baseline(Path.of(""), Map.of());
    }
  }

  private record Stored(Path directory, Map<String, StoredFile> files) {}

  private record Pending(Path localDirectory, SnapshotFiles target, List<StoredFile> files) {}

  IncrementalSnapshots(
      RocksDbInstance instance,
      KeyGroupRange range,
      String owner,
      LongFunction<Optional<SnapshotFiles>> storageTargets,
      LongFunction<SnapshotFiles> inProcessTargets,
      Path localCheckpoints,
      Baseline restored,
      LongConsumer onCompleted) {
    this.instance = instance;
    this.range = range;
    this.owner = owner;
    this.storageTargets = storageTargets;
    this.inProcessTargets = inProcessTargets;
    this.localCheckpoints = localCheckpoints;
    this.lastCompleted = restored;
    this.onCompleted = onCompleted;
  }

  /** The synchronous part: a RocksDB checkpoint and the handle that will name its files. */
  byte[] take(long checkpointId) throws RocksDBException, IOException {
    Optional<SnapshotFiles> stored = storageTargets.apply(checkpointId);
    SnapshotFiles target = stored.orElseGet(() -> inProcessTargets.apply(checkpointId));
    Path local = localCheckpoints.resolve("chk-" + checkpointId);
    Directories.deleteRecursively(local);
    Files.createDirectories(localCheckpoints);
    instance.flush();
    try (Checkpoint checkpoint = Checkpoint.create(instance.db())) {
      checkpoint.createCheckpoint(local.toString());
    }
    List<StoredFile> files = new ArrayList<>();
    // Only files in this job's shared directory: never a savepoint's, which the user may delete.
    Baseline baseline = lastCompleted;
    Map<String, StoredFile> reusable =
        target.shared()
                && baseline.directory().equals(target.directory().toAbsolutePath().normalize())
            ? baseline.files()
            : Map.of();
    try (Stream<Path> children = Files.list(local)) {
      for (Path file : children.sorted().toList()) {
        String name = file.getFileName().toString();
        long length = Files.size(file);
        StoredFile earlier = reusable.get(name);
        if (name.endsWith(".sst") && earlier != null && earlier.length() == length) {
          files.add(earlier);
        } else {
          files.add(new StoredFile(name, storedName(checkpointId, name), length));
        }
      }
    }
    pending.put(checkpointId, new Pending(local, target, List.copyOf(files)));
    String id = instanceId + "-" + checkpointId;
    Path directory = target.directory().toAbsolutePath().normalize();
    // Relative where the checkpoint is read back from its directory; see SnapshotHandle.
    Path recorded =
        stored.isPresent()
            ? target.checkpointDirectory().toAbsolutePath().normalize().relativize(directory)
            : directory;
    return new SnapshotHandle(id, range.start(), range.end(), recorded, files).toBytes();
  }

  /** SST files keep their name for the life of the database; the others change in place. */
  private String storedName(long checkpointId, String localName) {
    return localName.endsWith(".sst")
        ? instanceId + "-" + localName
        : instanceId + "-chk" + checkpointId + "-" + localName;
  }

  /** The asynchronous part: lists, then stores, the files of checkpoint {@code checkpointId}. */
  void materialize(long checkpointId) throws IOException {
    Pending snapshot = pending.remove(checkpointId);
    if (snapshot == null) {
      return;
    }
    try {
      Path targetDirectory = snapshot.target().directory().toAbsolutePath().normalize();
      Path checkpointDirectory = snapshot.target().checkpointDirectory().toAbsolutePath();
      Map<String, StoredFile> stored = new ConcurrentHashMap<>();
      List<StateFile> listing = new ArrayList<>();
      List<StoredFile> toCopy = new ArrayList<>();
      for (StoredFile file : snapshot.files()) {
        Path storedPath = targetDirectory.resolve(file.storedName());
        boolean copyNow = !Files.exists(storedPath) || Files.size(storedPath) != file.length();
        listing.add(
            new StateFile(
                checkpointDirectory.relativize(storedPath).toString(), file.length(), copyNow));
        if (copyNow) {
          toCopy.add(file);
        }
        stored.put(file.localName(), file);
      }
      // Listed before written: the listing is what keeps a shared file from being deleted.
      StateFileListing.write(checkpointDirectory, owner, listing);
      Files.createDirectories(targetDirectory);
      for (StoredFile file : toCopy) {
        copyDurably(
            snapshot.localDirectory().resolve(file.localName()),
            targetDirectory.resolve(file.storedName()));
      }
      if (snapshot.target().shared()) {
        storedByCheckpoint.put(checkpointId, new Stored(targetDirectory, stored));
      }
    } finally {
      Directories.deleteRecursively(snapshot.localDirectory());
    }
  }

  /** The files of a completed checkpoint are the base of the next one. */
  void completed(long checkpointId) {
    Stored stored = storedByCheckpoint.get(checkpointId);
    if (stored != null) {
      lastCompleted = new Baseline(stored.directory(), stored.files());
    }
    storedByCheckpoint.keySet().removeIf(id -> id <= checkpointId);
    onCompleted.accept(checkpointId);
  }

  private static void copyDurably(Path source, Path target) throws IOException {
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
        FileChannel out =
            FileChannel.open(
                target,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
      long size = in.size();
      long position = 0;
      while (position < size) {
        position += in.transferTo(position, size - position, out);
      }
      out.force(true);
    }
  }
}
