package io.weir.runtime.state;

import io.weir.files.DurableFiles;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * The files of one heap backend's checkpoints, so that a checkpoint never holds a serialized copy
 * of the whole state in memory beside the live one.
 *
 * <p>On the task thread, {@link #write} streams the key groups of a snapshot into a new file of the
 * checkpoint through a buffer and returns, for each key group, where its bytes are ({@link
 * KeyGroupInFile}); records wait meanwhile, so the file holds the state at the barrier. On the
 * snapshot thread, {@link #materialize} forces the file to disk and renames it into place, before
 * the subtask acknowledges, and lists it ({@link StateFileListing}). A crash before the
 * checkpoint's metadata is written leaves a file that no checkpoint names; it goes with the
 * checkpoint's directory. A job's checkpoint keeps its file in its own directory (no later
 * checkpoint shares it); a savepoint in its files directory, which an aborted savepoint deletes.
 *
 * <p>When the storage has no files (checkpoints kept in memory), {@link #write} returns empty and
 * the backend snapshots to bytes as before.
 */
final class HeapSnapshotFiles {
  private static final int BUFFER_BYTES = 64 * 1024;
  private static final Pattern UNSAFE_CHARACTERS = Pattern.compile("[^A-Za-z0-9._-]");
  private static final String SUFFIX = ".keygroups";
  private static final String IN_PROGRESS = ".inprogress";

  /** Writes the key groups of one snapshot, one after the other, each through {@code sink}. */
  interface KeyGroupSource {
    void writeTo(KeyGroupSink sink) throws IOException;
  }

  /** Takes each key group's states once the writer holds all of them. */
  interface KeyGroupSink {
    void keyGroupWritten(int keyGroup, KeyGroupWriter writer) throws IOException;
  }

  private record Written(Path temporary, Path file, Path checkpointDirectory, StateFile listed) {}

  private final String owner;
  private final LongFunction<Optional<SnapshotFiles>> targets;
  private final Map<Long, Written> written = new ConcurrentHashMap<>();

  /**
   * @param operatorUid the operator's stable id, part of the files' names
   * @param subtaskIndex the subtask's index, part of the files' names
   * @param targets where the files of checkpoint {@code id} go; empty when they stay in memory
   */
  HeapSnapshotFiles(
      String operatorUid, int subtaskIndex, LongFunction<Optional<SnapshotFiles>> targets) {
    this.owner = "heap-" + safe(operatorUid) + "-" + subtaskIndex;
    this.targets = targets;
  }

  /** For a backend whose checkpoints stay in memory. */
  static HeapSnapshotFiles none() {
    return new HeapSnapshotFiles("none", 0, id -> Optional.empty());
  }

  /**
   * The synchronous part: writes the key groups {@code source} writes into a new file of checkpoint
   * {@code checkpointId} and returns their references, or empty when the storage has no files.
   */
  Optional<Map<Integer, byte[]>> write(long checkpointId, KeyGroupSource source)
      throws IOException {
    Optional<SnapshotFiles> target = targets.apply(checkpointId);
    if (target.isEmpty()) {
      return Optional.empty();
    }
    Path checkpointDirectory = target.get().checkpointDirectory().toAbsolutePath().normalize();
    Path directory =
        target.get().shared()
            ? checkpointDirectory
            : target.get().directory().toAbsolutePath().normalize();
    Path file = directory.resolve(owner + "-chk" + checkpointId + SUFFIX);
    Path temporary = file.resolveSibling(file.getFileName() + IN_PROGRESS);
    String relative = checkpointDirectory.relativize(file).toString();
    Files.createDirectories(directory);
    Map<Integer, byte[]> references = new HashMap<>();
    CRC32 crc = new CRC32();
    long[] position = {0};
    try (OutputStream out =
        new CheckedOutputStream(
            new BufferedOutputStream(Files.newOutputStream(temporary), BUFFER_BYTES), crc)) {
      source.writeTo(
          (keyGroup, writer) -> {
            crc.reset();
            int length = writer.writeKeyGroupTo(out);
            references.put(
                keyGroup,
                new KeyGroupInFile(relative, position[0], length, crc.getValue()).toBytes());
            position[0] += length;
          });
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    written.put(
        checkpointId,
        new Written(
            temporary, file, checkpointDirectory, new StateFile(relative, position[0], true)));
    return Optional.of(references);
  }

  /**
   * The asynchronous part: makes the file of checkpoint {@code checkpointId}, and the directories
   * {@link #write} may have created for it, durable, and lists it in the checkpoint's directory, so
   * that loading the checkpoint verifies it is there, whole; nothing when it wrote none.
   */
  void materialize(long checkpointId) throws IOException {
    Written file = written.remove(checkpointId);
    if (file == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(file.temporary(), StandardOpenOption.WRITE)) {
      channel.force(true);
    }
    Files.move(file.temporary(), file.file(), StandardCopyOption.ATOMIC_MOVE);
    Path stop = file.checkpointDirectory().getParent();
    for (Path directory = file.file().getParent();
        directory != null && directory.startsWith(stop);
        directory = directory.getParent()) {
      DurableFiles.forceDirectory(directory);
    }
    StateFileListing.write(file.checkpointDirectory(), owner, List.of(file.listed()));
  }

  /** Checkpoint {@code checkpointId} completed: older ones that never materialized never will. */
  void completed(long checkpointId) {
    written.keySet().removeIf(id -> id < checkpointId);
  }

  private static String safe(String name) {
    String readable = UNSAFE_CHARACTERS.matcher(name).replaceAll("_");
    String shortened = readable.length() > 40 ? readable.substring(0, 40) : readable;
    return shortened + "-" + Integer.toHexString(name.hashCode());
  }
}
