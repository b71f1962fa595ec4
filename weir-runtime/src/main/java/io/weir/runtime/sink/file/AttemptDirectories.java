package io.weir.runtime.sink.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The fence of a {@link FileSink} against zombies (a task of an earlier attempt that still runs,
 * e.g. a stopped task manager woken after the job restarted elsewhere). Each subtask of each
 * attempt stages its part files in a directory of its own, {@code .attempt-<subtask>-<random>} in
 * the staging directory. Before a (re)started job's tasks start, its recovery step renames every
 * such directory to {@code .fenced-<subtask>-<random>}, atomically. From then on a zombie can
 * neither commit (its renames find no source), nor delete (its paths name nothing), nor create
 * anything; whatever it still writes goes into files no one will commit. The step commits the
 * restored pending transactions from the fenced directories, then deletes them.
 */
final class AttemptDirectories {
  private static final String LIVE = ".attempt-";
  private static final String FENCED = ".fenced-";

  private AttemptDirectories() {}

  /** Creates the staging directory of a new subtask attempt, durably. */
  static Path create(Path staging, int subtaskIndex) {
    Path directory = staging.resolve(LIVE + subtaskIndex + "-" + UUID.randomUUID());
    try {
      Files.createDirectory(directory);
      SinkDirectories.sync(staging);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create staging directory " + directory + ": " + e, e);
    }
    return directory;
  }

  /** Fences every live attempt directory in {@code staging}; returns how many it fenced. */
  static int fenceAll(Path staging) throws IOException {
    int fenced = 0;
    for (Path live : list(staging, LIVE)) {
      Files.move(live, fencedOf(live), StandardCopyOption.ATOMIC_MOVE);
      fenced++;
    }
    if (fenced > 0) {
      SinkDirectories.sync(staging);
    }
    return fenced;
  }

  /**
   * Where the staged files of a transaction staged in {@code directory} are now: there, or in its
   * fenced twin once the recovery step fenced it.
   */
  static Path current(Path directory) {
    if (Files.isDirectory(directory)) {
      return directory;
    }
    String name = directory.getFileName().toString();
    return name.startsWith(LIVE) ? fencedOf(directory) : directory;
  }

  /** Deletes every fenced directory with what is left in it: the aborted open transactions. */
  static void deleteFenced(Path staging) throws IOException {
    for (Path fenced : list(staging, FENCED)) {
      try (Stream<Path> files = Files.walk(fenced)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  /** The staging directory and every attempt directory in it, live or fenced. */
  static List<Path> stagingDirectories(Path staging) {
    List<Path> directories = new ArrayList<>();
    directories.add(staging);
    try {
      directories.addAll(list(staging, LIVE));
      directories.addAll(list(staging, FENCED));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list staging directory " + staging + ": " + e, e);
    }
    return directories;
  }

  private static Path fencedOf(Path live) {
    String name = live.getFileName().toString();
    return live.resolveSibling(FENCED + name.substring(LIVE.length()));
  }

  private static List<Path> list(Path staging, String prefix) throws IOException {
    List<Path> directories = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(staging, prefix + "*")) {
      for (Path entry : entries) {
        if (Files.isDirectory(entry)) {
          directories.add(entry);
        }
      }
    } catch (NoSuchFileException e) {
      // Nothing staged yet.
    }
    return directories;
  }
}
