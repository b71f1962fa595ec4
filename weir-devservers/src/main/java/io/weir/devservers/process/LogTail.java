package io.weir.devservers.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.stream.Stream;

/** The last lines of a log file, for error details; never fails (a missing file is empty). */
public final class LogTail {
  private LogTail() {}

  public static String of(Path file, int lines) {
    if (!Files.isRegularFile(file)) {
      return "";
    }
    Deque<String> tail = new ArrayDeque<>(lines);
    try (Stream<String> all = Files.lines(file, StandardCharsets.ISO_8859_1)) {
      all.forEach(
          line -> {
            if (tail.size() == lines) {
              tail.removeFirst();
            }
            tail.addLast(line);
          });
    } catch (IOException | java.io.UncheckedIOException e) {
      return "";
    }
    return "--- last lines of " + file + " ---\n" + String.join("\n", tail);
  }
}
