package io.weir.lab.nemesis;

import io.weir.lab.LabUserError;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The job's checkpoint directory on a small file system of its own (a tmpfs), so that the nemesis
 * can fill it to the last byte — a full disk — and free it again. Mounted before the job starts, it
 * is seen by the job's host too (a network namespace shares the mounts it was started with).
 *
 * <p>Every volume is mounted from its {@link NetworkSlot}'s source name, so {@link
 * #removeLeftovers} finds the ones a crashed lab of the slot left mounted.
 */
final class CheckpointVolume implements AutoCloseable {
  private static final String SIZE = "64m";
  private static final int CHUNK_BYTES = 1 << 20;
  private static final String FILLER = "nemesis-disk-full.filler";

  private final Path directory;

  private CheckpointVolume(Path directory) {
    this.directory = directory;
  }

  /** Mounts a small file system of {@code slot} at {@code directory}, created when missing. */
  static CheckpointVolume mount(NetworkSlot slot, Path directory) throws IOException {
    Files.createDirectories(directory);
    run("mount", "-t", "tmpfs", "-o", "size=" + SIZE, slot.volumeSource(), directory.toString());
    return new CheckpointVolume(directory);
  }

  Path directory() {
    return directory;
  }

  /** Fills the file system until the next write fails for want of space. */
  void fill() {
    byte[] chunk = new byte[CHUNK_BYTES];
    try (OutputStream out = Files.newOutputStream(directory.resolve(FILLER))) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      // No space left: the file system is full, which is the fault.
    }
  }

  /** Frees what {@link #fill} took. */
  void drain() throws IOException {
    Files.deleteIfExists(directory.resolve(FILLER));
  }

  /** Unmounts the file system (lazily: a process may still hold a file open on it). */
  @Override
  public void close() {
    attempt("umount", "-l", directory.toString());
  }

  /**
   * Unmounts every volume a lab of {@code slot} that did not end cleanly left mounted.
   *
   * @return the directories unmounted, empty when there were none
   */
  static List<String> removeLeftovers(NetworkSlot slot) throws IOException {
    List<String> removed = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
      String[] fields = line.split(" ");
      if (fields.length > 1
          && fields[0].equals(slot.volumeSource())
          && attempt("umount", "-l", fields[1])) {
        removed.add("checkpoint volume " + fields[1]);
      }
    }
    return removed;
  }

  private static void run(String... command) {
    if (!attempt(command)) {
      throw new LabUserError(
          "cannot mount the job's checkpoint volume: " + String.join(" ", command) + " failed");
    }
  }

  private static boolean attempt(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      process.getInputStream().transferTo(OutputStream.nullOutputStream());
      return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
