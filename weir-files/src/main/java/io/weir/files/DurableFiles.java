package io.weir.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** File operations that survive a power cut: data and directory entries are forced to disk. */
public final class DurableFiles {
  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase().startsWith("windows");

  private DurableFiles() {}

  /**
   * Replaces {@code target} with {@code content} so that a crash leaves either the old file, or no
   * file, or the whole new one: temporary file, fsync, atomic rename, fsync of the directory.
   */
  public static void writeAtomically(Path target, byte[] content) throws IOException {
    Path temporary = target.resolveSibling(target.getFileName() + ".inprogress");
    try (FileChannel channel =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    forceDirectory(target.getParent());
  }

  /** Makes the entries of {@code directory} (files created, renamed or deleted) durable. */
  public static void forceDirectory(Path directory) throws IOException {
    if (WINDOWS) {
      return; // Windows cannot open a directory as a channel; NTFS journals the entries itself.
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }
}
