package io.weir.lab.process;

import io.weir.lab.LabFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a job process's log says about how it ended: its one-line error ({@code weir: ...}), that it
 * was given an option it does not know (an operation whose option this build lacks), how often it
 * restarted, or that it ran out of memory.
 */
public final class JobLog {
  /** The seed job's and picocli's wording for an option they do not know. */
  private static final Pattern UNKNOWN_OPTION =
      Pattern.compile(
          "Unknown option:? '?(--[\\w-]+)'?|Unmatched argument[^']*'([^']+)'|Unknown subcommand"
              + "[^']*'([^']+)'");

  /** The progress line a running job prints every few seconds, which is no error. */
  private static final Pattern PROGRESS = Pattern.compile("^weir: (job '[^']*' \\d+s:|failpoint )");

  // "job 'seed' finished in 4.4 s: 6 checkpoints, 0 restarts" (local) and "job 'seed' finished: 0
  // restarts, last checkpoint chk-5" (submitted to a cluster).
  private static final Pattern FINISHED = Pattern.compile("^job '.*' finished.* (\\d+) restarts");

  private JobLog() {}

  /**
   * The last {@code weir: ...} line of the log that is not progress: the one-line error a user
   * sees, if any.
   */
  public static Optional<String> errorLine(Path log) {
    List<String> lines = lines(log);
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith("weir: ") && !PROGRESS.matcher(lines.get(i)).find()) {
        return Optional.of(lines.get(i));
      }
    }
    return Optional.empty();
  }

  /** The option or command the process refused as unknown, if that is how it ended. */
  public static Optional<String> unsupportedOption(Path log) {
    for (String line : lines(log)) {
      Matcher matcher = UNKNOWN_OPTION.matcher(line);
      if (matcher.find()) {
        for (int group = 1; group <= matcher.groupCount(); group++) {
          if (matcher.group(group) != null) {
            return Optional.of(matcher.group(group));
          }
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The restarts the job's final line reports: a run that restarted measured a recovery as well,
   * which its figures alone do not show. Empty when the job did not end.
   */
  public static OptionalInt restarts(Path log) {
    OptionalInt restarts = OptionalInt.empty();
    for (String line : lines(log)) {
      Matcher finished = FINISHED.matcher(line);
      if (finished.find()) {
        restarts = OptionalInt.of(Integer.parseInt(finished.group(1)));
      }
    }
    return restarts;
  }

  /** Whether the process's heap did not hold: an OutOfMemoryError, thrown or ending the JVM. */
  public static boolean ranOutOfMemory(Path log) {
    return lines(log).stream().anyMatch(line -> line.contains("OutOfMemoryError"));
  }

  /**
   * The failure to report for a process that ended when it should not have: "option X not
   * supported" when it refused an option, else its error line, else where its log is.
   */
  public static LabFailure endedEarly(String what, Path log) {
    Optional<String> option = unsupportedOption(log);
    if (option.isPresent()) {
      return new LabFailure(
          "option not supported: " + option.get() + " (this build lacks it); see " + log);
    }
    return new LabFailure(
        what + errorLine(log).map(line -> ": " + line).orElse("") + "; see " + log);
  }

  private static List<String> lines(Path log) {
    try {
      // Decoded leniently: a log may hold bytes that are not UTF-8 (a record in an error message).
      return Files.exists(log)
          ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList()
          : List.of();
    } catch (IOException e) {
      throw new LabFailure("Cannot read the job log " + log + ": " + e.getMessage());
    }
  }
}
