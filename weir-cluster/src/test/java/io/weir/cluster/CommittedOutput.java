package io.weir.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/** Reads the committed part files of a file sink: how often each line occurs. */
public final class CommittedOutput {
  private CommittedOutput() {}

  public static Map<String, Integer> lineCounts(Path directory) throws IOException {
    Map<String, Integer> counts = new HashMap<>();
    if (!Files.isDirectory(directory)) {
      return counts;
    }
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        if (file.getFileName().toString().startsWith(".")) {
          continue;
        }
        for (String line : Files.readAllLines(file)) {
          counts.merge(line, 1, Integer::sum);
        }
      }
    }
    return counts;
  }
}
