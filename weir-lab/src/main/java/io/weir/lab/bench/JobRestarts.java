package io.weir.lab.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How often a measured Weir job restarted, as its {@code weir run} reported when the job ended: a
 * run that restarted measured a recovery as well, which its figures alone do not show.
 */
final class JobRestarts {
  // "job 'seed' finished in 4.4 s: 6 checkpoints, 0 restarts" (local) and "job 'seed' finished: 0
  // restarts, last checkpoint chk-5" (submitted to a cluster).
  private static final Pattern FINISHED = Pattern.compile("^job '.*' finished.* (\\d+) restarts");

  private JobRestarts() {}

  /** The restarts the job's final line in {@code log} reports; empty when it has no such line. */
  static OptionalInt reported(Path log) {
    String text;
    try {
      // Decoded leniently: a log may hold bytes that are not UTF-8 (a record in an error message).
      text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the job's log " + log, e);
    }
    OptionalInt restarts = OptionalInt.empty();
    for (String line : text.lines().toList()) {
      Matcher finished = FINISHED.matcher(line);
      if (finished.find()) {
        restarts = OptionalInt.of(Integer.parseInt(finished.group(1)));
      }
    }
    return restarts;
  }
}
