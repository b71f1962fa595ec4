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
import java.util.function.LongFunction;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * The files of one heap backend's checkpoints, so that a checkpoint never holds a serialized copy
 * of the whole state in memory beside the live one.
 *
 * <p>On the task thread, {@link #target} says whether checkpoint {@code id} goes to files at all;
 * when the storage has none (checkpoints kept in memory), the backend snapshots to bytes as before.
 * On the snapshot thread, {@link #write} streams the key groups of a snapshot into a new file of
 * the checkpoint through a buffer, forces it to disk and renames it into place, lists it ({@link
 * StateFileListing}), and returns, for each key group, where its bytes are ({@link
 * KeyGroupInFile}); all before the subtask acknowledges. A crash before the checkpoint's metadata
 * is written leaves a file that no checkpoint names; it goes with the checkpoint's directory. A
 * job's checkpoint keeps its file in its own directory (no later checkpoint shares it); a savepoint
 * in its files directory, which an aborted savepoint deletes.
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

  private final String owner;
  private final LongFunction<Optional<SnapshotFiles>> targets;

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
   * Where the file of checkpoint {@code checkpointId} goes; empty when the storage has no files.
   */
  Optional<SnapshotFiles> target(long checkpointId) {
    return targets.apply(checkpointId);
  }

  /**
   * Writes the key groups {@code source} writes into a new file of checkpoint {@code checkpointId}
   * where {@code target} says, makes it and the directories it created durable, lists it in the
   * checkpoint's directory, so that loading the checkpoint verifies it is there, whole, and returns
   * the key groups' references. Leaves no file behind when it throws.
   */
  Map<Integer, byte[]> write(long checkpointId, SnapshotFiles target, KeyGroupSource source)
      throws IOException {
    Path checkpointDirectory = target.checkpointDirectory().toAbsolutePath().normalize();
    Path directory =
        target.shared() ? checkpointDirectory : target.directory().toAbsolutePath().normalize();
    Path file = directory.resolve(owner + "-chk" + checkpointId + SUFFIX);
    Path temporary = file.resolveSibling(file.getFileName() + IN_PROGRESS);
    String relative = checkpointDirectory.relativize(file).toString();
    Files.createDirectories(directory);
    Map<Integer, byte[]> references = new HashMap<>();
    long length;
    try {
      length = writeFile(temporary, relative, source, references);
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(temporary);
      throw e;
    }
    Path stop = checkpointDirectory.getParent();
    for (Path parent = file.getParent();
        parent != null && parent.startsWith(stop);
        parent = parent.getParent()) {
      DurableFiles.forceDirectory(parent);
    }
    StateFileListing.write(
        checkpointDirectory, owner, List.of(new StateFile(relative, length, true)));
    return references;
  }

  /** Streams the key groups into {@code temporary}, noting where each is; returns its length. */
  private static long writeFile(
      Path temporary, String relative, KeyGroupSource source, Map<Integer, byte[]> references)
      throws IOException {
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
    }
    return position[0];
  }

  private static String safe(String name) {
    String readable = UNSAFE_CHARACTERS.matcher(name).replaceAll("_");
    String shortened = readable.length() > 40 ? readable.substring(0, 40) : readable;
    return shortened + "-" + Integer.toHexString(name.hashCode());
  }
}
