package io.weir.cli.cluster;

import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where one failover's time went, read from the new leader's log: each phase's first line after the
 * leader was lost, in ms since the loss. The log lines start with their wall-clock time of day,
 * {@code 04:47:57.979}, on the same clock as the test's.
 */
final class FailoverTimeline {
  /** The phases in the order they happen, each named by the log line that ends it. */
  private static final List<Phase> PHASES =
      List.of(
          new Phase("election", "is the leader, epoch"),
          new Phase("job store read", "Recovering job"),
          new Phase("job build", "Job \\S+ '\\S+' submitted"),
          new Phase("slots", "sink recovery step starts"),
          new Phase("sink recovery step", "sink recovery step done"),
          new Phase("deploy", "every subtask deployed"),
          new Phase("tasks start", "every subtask runs"),
          new Phase("first checkpoint triggered", "checkpoint \\d+ triggered"),
          new Phase("first checkpoint stored", "metadata stored \\(the first completed\\)"));

  private record Phase(String name, String line) {
    Pattern pattern() {
      return Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) .*" + line);
    }
  }

  private FailoverTimeline() {}

  /**
   * One line: each phase's length and, at the end, the first committed output's, e.g. {@code
   * election 4100, job store read 20, ...}; a phase the log does not show is left out.
   *
   * @param log the new leader's log
   * @param lostAt when the leader was lost, on the log's clock
   * @param committedMillis when the first new committed output was seen, in ms since the loss
   */
  static String of(String log, LocalTime lostAt, long committedMillis) {
    List<String> parts = new ArrayList<>();
    long previous = 0;
    String[] lines = log.split("\n");
    int from = 0;
    for (Phase phase : PHASES) {
      Pattern pattern = phase.pattern();
      for (int at = from; at < lines.length; at++) {
        var matcher = pattern.matcher(lines[at]);
        if (!matcher.find()) {
          continue;
        }
        long millis = Duration.between(lostAt, LocalTime.parse(matcher.group(1))).toMillis();
        if (millis < 0) {
          continue;
        }
        parts.add(phase.name() + " " + (millis - previous));
        previous = millis;
        from = at;
        break;
      }
    }
    parts.add("commit " + (committedMillis - previous));
    return String.join(", ", parts) + " (ms)";
  }
}
