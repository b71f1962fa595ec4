package io.weir.lab.operations;

import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
import io.weir.lab.process.RunningJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The job's own count of its dead letters, as a user sees it: the {@code dead-letters=N} of the
 * progress line that {@code weir run} prints every few seconds, locally (from the tasks) and on a
 * cluster (from the job manager, which the task managers' heartbeats tell).
 */
final class DeadLetterCount {
  private static final Pattern COUNT = Pattern.compile("dead-letters=(\\d+)");
  private static final Duration POLL = Duration.ofMillis(200);

  private DeadLetterCount() {}

  /**
   * Waits until the job's log shows {@code expected} dead letters in a progress line, for at most
   * {@code timeout}; fails the cell with the last count shown (none: 0) otherwise.
   */
  static void awaitShown(RunningJob job, long expected, Duration timeout) throws Exception {
    Polling.until(
        timeout,
        POLL,
        () -> {
          long shown = lastShown(job.log());
          if (shown == expected) {
            return Optional.of(shown);
          }
          if (!job.isAlive()) {
            throw shownInstead(shown, expected, job);
          }
          return Optional.empty();
        },
        () -> shownInstead(lastShownOrZero(job.log()), expected, job));
  }

  private static LabFailure shownInstead(long shown, long expected, RunningJob job) {
    return new LabFailure(
        "the job's progress line says dead-letters="
            + shown
            + ", but "
            + expected
            + " was sent to the dead-letter topic; see "
            + job.log());
  }

  private static long lastShownOrZero(Path log) {
    try {
      return lastShown(log);
    } catch (IOException e) {
      return 0;
    }
  }

  private static long lastShown(Path log) throws IOException {
    Matcher matcher = COUNT.matcher(Files.readString(log));
    long last = 0;
    while (matcher.find()) {
      last = Long.parseLong(matcher.group(1));
    }
    return last;
  }
}
