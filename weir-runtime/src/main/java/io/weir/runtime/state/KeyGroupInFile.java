package io.weir.runtime.state;

import io.weir.api.datastream.SuppressRestartsException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * What a checkpoint records of one key group of a heap snapshot written to a file (see {@link
 * HeapSnapshotFiles}): where its bytes, in the {@link HeapKeyGroupFormat}, are in that file, and
 * their CRC32, checked when they are read back. The file is named relative to the checkpoint's
 * directory, so that a checkpoint or savepoint still restores after it was moved.
 *
 * <pre>
 * magic "WHKR" (int), version (byte), file (UTF), offset (long), length (int), checksum (long)
 * </pre>
 *
 * @param file the file's path relative to the checkpoint's directory
 * @param offset where the key group's bytes begin in the file
 * @param length how many bytes it has
 * @param checksum their CRC32
 */
record KeyGroupInFile(String file, long offset, int length, long checksum) {
  private static final int MAGIC = 0x57484B52;
  private static final byte VERSION = 1;

  /** Whether {@code bytes} start with this record's magic. */
  static boolean isReference(byte[] bytes) {
    return bytes.length > Integer.BYTES && ByteBuffer.wrap(bytes).getInt() == MAGIC;
  }

  byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(VERSION);
      out.writeUTF(file);
      out.writeLong(offset);
      out.writeInt(length);
      out.writeLong(checksum);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static KeyGroupInFile fromBytes(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      in.readInt();
      byte version = in.readByte();
      if (version != VERSION) {
        throw new IllegalStateException(
            "Heap key group reference of version " + version + " is not supported");
      }
      return new KeyGroupInFile(in.readUTF(), in.readLong(), in.readInt(), in.readLong());
    } catch (IOException e) {
      throw new UncheckedIOException("Heap key group reference is truncated", e);
    }
  }

  /**
   * Reads the key group's bytes from the file, resolved against {@code location}, the directory of
   * the checkpoint it is restored from; throws, naming the file and key group, when they are not
   * all there or their checksum does not match. Restarting from the same checkpoint would fail the
   * same way, so those failures stop the job at once.
   */
  byte[] read(Path location, int keyGroup) {
    if (location == null) {
      throw new IllegalStateException(
          "Key group "
              + keyGroup
              + " is stored in "
              + file
              + " relative to its checkpoint, whose directory is not known to this restore");
    }
    Path path = location.toAbsolutePath().resolve(file).normalize();
    byte[] bytes = new byte[length];
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, offset + buffer.position()) < 0) {
          throw new SuppressRestartsException(
              "State file " + path + " ends before the end of key group " + keyGroup, null);
        }
      }
    } catch (IOException e) {
      throw new SuppressRestartsException(
          "Cannot read key group " + keyGroup + " from state file " + path + ": " + e, e);
    }
    CRC32 crc = new CRC32();
    crc.update(bytes);
    if (crc.getValue() != checksum) {
      throw new SuppressRestartsException(
          "Checksum mismatch in key group " + keyGroup + " of state file " + path, null);
    }
    return bytes;
  }
}
