package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.examples.SeedRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the seed job's {@code FileSink} committed: its {@code part-*} files, read as a user would.
 */
final class CommittedPartFiles {
  private CommittedPartFiles() {}

  /** How often each record id appears in the committed {@code part-*} files of the directory. */
  static Map<Long, Integer> idCounts(Path outputDirectory) throws IOException {
    Map<Long, Integer> counts = new HashMap<>();
    try (Stream<Path> files = Files.list(outputDirectory)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
        try (Stream<String> lines = Files.lines(file)) {
          lines.forEach(line -> counts.merge(SeedRecords.timestamp(line), 1, Integer::sum));
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
    }
    return counts;
  }

  /**
   * Asserts that the directory's committed files hold each of the seed ids {@code 0..records-1}
   * exactly once, and nothing else.
   */
  static void assertEachIdOnce(Path outputDirectory, int records) throws IOException {
    Map<Long, Integer> counts = idCounts(outputDirectory);
    assertThat(counts.entrySet().stream().filter(e -> e.getValue() != 1).toList())
        .as("ids committed more than once")
        .isEmpty();
    assertThat(counts).hasSize(records);
    assertThat(counts.keySet())
        .allSatisfy(
            id -> assertThat(id - SeedRecords.BASE_TIMESTAMP).isBetween(0L, (long) records - 1));
  }
}
