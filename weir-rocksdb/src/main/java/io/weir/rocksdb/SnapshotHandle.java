package io.weir.rocksdb;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a checkpoint records of one subtask's RocksDB: the key groups it held and the files of the
 * RocksDB checkpoint, by the name RocksDB gave them and the name they are stored under. The same
 * bytes stand for every key group of the range, so that a restore with another parallelism finds
 * the handle of each old subtask whose key groups it takes.
 *
 * <p>The directory of the stored files is recorded relative to the checkpoint's own directory
 * ({@code ../shared} for a job's checkpoints, {@code files} for a savepoint), so that a savepoint,
 * or a job's whole checkpoint directory, still restores after it was moved; only checkpoints that
 * stay in the process record an absolute directory. Version 1 handles recorded absolute ones.
 *
 * @param id unique per backend instance and checkpoint, so that copies of one handle are one
 * @param directory where the stored files are: absolute, or relative to the checkpoint's directory
 */
record SnapshotHandle(
    String id, int firstKeyGroup, int lastKeyGroup, Path directory, List<StoredFile> files) {
  private static final int MAGIC = 0x57524442; // "WRDB"
  private static final int VERSION = 2;
  private static final int ABSOLUTE_ONLY_VERSION = 1;

  /** One file of the RocksDB checkpoint. */
  record StoredFile(String localName, String storedName, long length) {}

  static boolean isHandle(byte[] bytes) {
    return bytes.length >= 4
        && ((bytes[0] & 0xff) << 24
                | (bytes[1] & 0xff) << 16
                | (bytes[2] & 0xff) << 8
                | (bytes[3] & 0xff))
            == MAGIC;
  }

  /**
   * This handle with an absolute directory, a relative one resolved against {@code location}, the
   * directory of the checkpoint it was restored from.
   */
  SnapshotHandle resolvedAgainst(Path location) {
    if (directory.isAbsolute()) {
      return this;
    }
    if (location == null) {
      throw new IllegalStateException(
          "RocksDB state files are recorded relative to their checkpoint, whose directory is"
              + " not known to this restore");
    }
    Path resolved = location.toAbsolutePath().resolve(directory).normalize();
    return new SnapshotHandle(id, firstKeyGroup, lastKeyGroup, resolved, files);
  }

  boolean overlaps(int first, int last) {
    return firstKeyGroup <= last && lastKeyGroup >= first;
  }

  byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeUTF(id);
      out.writeInt(firstKeyGroup);
      out.writeInt(lastKeyGroup);
      out.writeUTF(directory.toString());
      out.writeInt(files.size());
      for (StoredFile file : files) {
        out.writeUTF(file.localName());
        out.writeUTF(file.storedName());
        out.writeLong(file.length());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static SnapshotHandle fromBytes(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int magic = in.readInt();
      int version = in.readInt();
      if (magic != MAGIC || (version != VERSION && version != ABSOLUTE_ONLY_VERSION)) {
        throw new IllegalStateException("Not a RocksDB state handle of a known version");
      }
      String id = in.readUTF();
      int first = in.readInt();
      int last = in.readInt();
      Path directory = Path.of(in.readUTF());
      int count = in.readInt();
      List<StoredFile> files = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        files.add(new StoredFile(in.readUTF(), in.readUTF(), in.readLong()));
      }
      return new SnapshotHandle(id, first, last, directory, List.copyOf(files));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
