package io.weir.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** The records a FileSink committed: the visible {@code part-*} files of its output directory. */
final class CommittedOutput {
  private CommittedOutput() {}

  /** How often each record id (its timestamp) appears across the committed files. */
  static Map<Long, Integer> idCounts(Path outputDirectory) throws IOException {
    Map<Long, Integer> counts = new HashMap<>();
    try (Stream<Path> files = Files.list(outputDirectory)) {
      files
          .filter(file -> file.getFileName().toString().startsWith("part-"))
          .forEach(file -> countIds(file, counts));
    }
    return counts;
  }

  private static void countIds(Path file, Map<Long, Integer> counts) {
    try (Stream<String> lines = Files.lines(file)) {
      lines.forEach(line -> counts.merge(SeedRecords.timestamp(line), 1, Integer::sum));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
