package io.weir.runtime.checkpoint.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Removal of directory trees: of discarded checkpoints here, and of the working folders of the lab,
 * the bench, the state backends and the test support, which all need the same thing.
 */
public final class Directories {
  private Directories() {}

  /**
   * Deletes {@code path} and everything below it; a missing path is fine, and so is a file that
   * another thread or process deletes meanwhile.
   */
  public static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    List<Path> deepestFirst;
    try (Stream<Path> walk = Files.walk(path)) {
      deepestFirst = walk.sorted(Comparator.reverseOrder()).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    for (Path each : deepestFirst) {
      try {
        Files.delete(each);
      } catch (NoSuchFileException alreadyGone) {
        // Deleted concurrently, e.g. by a second discard of the same checkpoint: the goal is met.
      }
    }
  }
}
