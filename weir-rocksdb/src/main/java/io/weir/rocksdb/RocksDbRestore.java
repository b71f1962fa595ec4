package io.weir.rocksdb;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.rocksdb.SnapshotHandle.StoredFile;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.state.KeyGroupRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;

/**
 * Builds a subtask's database from the checkpointed state of the old subtasks whose key groups it
 * takes. With the same key groups as one old subtask (no rescale) the stored files become the
 * database (SST files hard-linked when the file system allows); otherwise each old database is
 * opened from a temporary copy, the entries of this subtask's key groups are cut out of it into an
 * SST file per state, and those files are ingested.
 */
final class RocksDbRestore {
  private RocksDbRestore() {}

  /**
   * The distinct handles among a subtask's restored key groups, their directories resolved against
   * {@code location}, the directory of the checkpoint restored from (null when kept in memory).
   */
  static Collection<SnapshotHandle> handlesOf(Map<Integer, byte[]> keyGroups, Path location) {
    Map<String, SnapshotHandle> handles = new LinkedHashMap<>();
    for (byte[] bytes : keyGroups.values()) {
      if (!SnapshotHandle.isHandle(bytes)) {
        throw new IllegalStateException(
            "The restored keyed state was written by the heap state backend; restore it with"
                + " --state-backend heap");
      }
      SnapshotHandle handle = SnapshotHandle.fromBytes(bytes).resolvedAgainst(location);
      handles.putIfAbsent(handle.id(), handle);
    }
    return handles.values();
  }

  /**
   * A restored database, and the stored files it consists of when it is one old subtask's database
   * as it was (none after a rescale, which writes new files).
   */
  record Restored(RocksDbInstance instance, IncrementalSnapshots.Baseline baseline) {}

  /** Opens the database of {@code range} in {@code directory} (empty) from {@code handles}. */
  static Restored restore(Collection<SnapshotHandle> handles, KeyGroupRange range, Path directory)
      throws IOException, RocksDBException {
    if (handles.size() == 1) {
      SnapshotHandle only = handles.iterator().next();
      if (only.firstKeyGroup() == range.start() && only.lastKeyGroup() == range.end()) {
        placeFiles(only, directory);
        RocksDbInstance restored;
        try {
          restored = new RocksDbInstance(directory);
        } catch (RocksDBException e) {
          throw unrestorable(
              "RocksDB state in " + only.directory() + " cannot be opened: " + e.getMessage(), e);
        }
        verify(restored, only);
        return new Restored(restored, baselineOf(only));
      }
    }
    RocksDbInstance target = new RocksDbInstance(directory);
    try {
      for (SnapshotHandle handle : handles) {
        if (handle.overlaps(range.start(), range.end())) {
          Path scratch = directory.resolveSibling(directory.getFileName() + "-restore");
          copyKeyGroups(handle, range, target, scratch);
        }
      }
      return new Restored(target, IncrementalSnapshots.Baseline.none());
    } catch (IOException | RocksDBException | RuntimeException e) {
      target.close();
      throw e;
    }
  }

  private static IncrementalSnapshots.Baseline baselineOf(SnapshotHandle handle) {
    Map<String, StoredFile> files = new LinkedHashMap<>();
    handle.files().stream()
        .filter(file -> file.localName().endsWith(".sst"))
        .forEach(file -> files.put(file.localName(), file));
    return new IncrementalSnapshots.Baseline(handle.directory(), Map.copyOf(files));
  }

  /** Reads every block once: a corrupt file fails the restore now, not some later record. */
  private static void verify(RocksDbInstance restored, SnapshotHandle handle) {
    try {
      restored.db().verifyChecksum();
    } catch (RocksDBException e) {
      restored.close();
      throw unrestorable(
          "RocksDB state in " + handle.directory() + " is corrupt: " + e.getMessage(), e);
    }
  }

  private static void copyKeyGroups(
      SnapshotHandle handle, KeyGroupRange range, RocksDbInstance target, Path scratch)
      throws IOException, RocksDBException {
    Directories.deleteRecursively(scratch);
    placeFiles(handle, scratch);
    int first = Math.max(range.start(), handle.firstKeyGroup());
    int last = Math.min(range.end(), handle.lastKeyGroup());
    Path cut = scratch.resolveSibling(scratch.getFileName() + "-cut");
    try (RocksDbInstance source = new RocksDbInstance(scratch)) {
      Files.createDirectories(cut);
      for (String name : source.familyNames()) {
        Path file = cut.resolve(LocalWorkingDirectories.safe(name) + ".sst");
        if (writeKeyGroups(source, source.family(name), first, last, file)) {
          ingest(target, target.family(name), file);
        }
      }
    } finally {
      Directories.deleteRecursively(scratch);
      Directories.deleteRecursively(cut);
    }
  }

  /**
   * Writes the entries of key groups {@code first..last} of one family, in key order, to an SST
   * file; false when there are none (RocksDB cannot write an empty one).
   */
  private static boolean writeKeyGroups(
      RocksDbInstance source, ColumnFamilyHandle from, int first, int last, Path file)
      throws RocksDBException {
    boolean any = false;
    try (EnvOptions environment = new EnvOptions();
        Options options = new Options();
        SstFileWriter writer = new SstFileWriter(environment, options);
        RocksIterator iterator = source.db().newIterator(from)) {
      for (iterator.seek(StateKeys.firstOf(first)); iterator.isValid(); iterator.next()) {
        byte[] key = iterator.key();
        if (StateKeys.keyGroupOf(key) > last) {
          break;
        }
        if (!any) {
          writer.open(file.toString());
          any = true;
        }
        writer.put(key, iterator.value());
      }
      if (any) {
        writer.finish();
      }
    }
    return any;
  }

  /** The file becomes part of the database as it is: no write batches, no memtable, no WAL. */
  private static void ingest(RocksDbInstance target, ColumnFamilyHandle to, Path file)
      throws RocksDBException {
    try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
      target.db().ingestExternalFile(to, List.of(file.toString()), options);
    }
  }

  /**
   * Puts the stored files of {@code handle} into {@code directory} under RocksDB's names; a missing
   * or truncated file fails the restore naming it.
   */
  private static void placeFiles(SnapshotHandle handle, Path directory) throws IOException {
    Files.createDirectories(directory);
    for (StoredFile file : handle.files()) {
      Path stored = handle.directory().resolve(file.storedName());
      if (!Files.isRegularFile(stored)) {
        throw unrestorable("RocksDB state file " + stored + " is missing", null);
      }
      long length = Files.size(stored);
      if (length != file.length()) {
        throw unrestorable(
            "RocksDB state file " + stored + " has " + length + " bytes, expected " + file.length(),
            null);
      }
      Path local = directory.resolve(file.localName());
      if (!file.localName().endsWith(".sst") || !tryLink(local, stored)) {
        Files.copy(stored, local);
      }
    }
  }

  /**
   * Restarting from the same checkpoint would fail the same way: the job fails now, and the next
   * start skips the broken checkpoint under the fallback rules (the listing names the same file).
   */
  private static SuppressRestartsException unrestorable(String message, Throwable cause) {
    return new SuppressRestartsException(message, cause);
  }

  /** SST files are never changed, so the stored file itself can serve; RocksDB only unlinks it. */
  private static boolean tryLink(Path link, Path existing) {
    try {
      Files.createLink(link, existing);
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }
}
