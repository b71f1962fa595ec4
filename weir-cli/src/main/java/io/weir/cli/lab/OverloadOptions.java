package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.lab.CellTopics;
import io.weir.lab.LabProgress;
import io.weir.lab.overload.OverloadReport;
import io.weir.lab.overload.OverloadSettings;
import io.weir.lab.overload.OverloadSoak;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The options of {@code weir lab --overload}, and the run they ask for. */
final class OverloadOptions {
  private static final long DEFAULT_RECORD_DELAY_MICROS = 2000;

  @Option(
      names = "--overload",
      description =
          "Feed the seed job at three times what its slowed map can process, then below it, in"
              + " turns for --minutes; check memory, checkpoint durations, transaction ages,"
              + " restarts, lag and exactly-once (docs/backpressure.md).")
  boolean overload;

  @Option(
      names = "--record-delay-micros",
      paramLabel = "D",
      description =
          "With --overload: what the job's map waits for each record, which sets what it can"
              + " process (default: "
              + DEFAULT_RECORD_DELAY_MICROS
              + ", about 500 records a second).")
  Long recordDelayMicros;

  @Option(
      names = "--unaligned",
      description = "With --overload: the job takes unaligned checkpoints.")
  boolean unaligned;

  @Option(
      names = "--kill",
      description =
          "With --overload: kill -9 the job in the first overload phase (with --unaligned, once"
              + " its newest checkpoint holds records in flight) and restart it.")
  boolean kill;

  /** Whether an option of the overload soak was given without {@code --overload}. */
  boolean strayOption() {
    return !overload && (unaligned || kill || recordDelayMicros != null);
  }

  /** The soak's settings; a user error names an option out of range. */
  OverloadSettings settings(double minutes, Duration timeout) {
    long delay = recordDelayMicros == null ? DEFAULT_RECORD_DELAY_MICROS : recordDelayMicros;
    if (delay < 1) {
      throw new UserError("--record-delay-micros must be at least 1, got " + delay);
    }
    Duration total = Duration.ofMillis((long) (minutes * 60_000));
    if (total.toSeconds() < 10) {
      throw new UserError("--overload needs --minutes of at least 10 seconds, got " + minutes);
    }
    return new OverloadSettings(total, delay, unaligned, kill, timeout);
  }

  /** Runs the soak and prints its lines; returns the exit code (1 on any anomaly). */
  int run(OverloadSettings settings, Path directory, CellTopics topics, Path json)
      throws Exception {
    LabProgress progress = new LabProgress(System.out, "overload");
    OverloadReport report =
        new OverloadSoak(settings, progress, Clock.systemUTC())
            .run(directory.toAbsolutePath(), topics);
    report.phaseLines().forEach(System.out::println);
    report.anomalies().forEach(anomaly -> System.out.println("anomaly: " + anomaly));
    if (json != null) {
      progress.line("picture " + report.write(json));
    }
    System.out.println(report.line());
    return report.anomalies().isEmpty() ? 0 : 1;
  }
}
