package io.weir.lab.nemesis;

import io.weir.lab.LabProgress;
import java.time.Clock;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The nemesis lab's progress lines, each stamped with the UTC time of day. */
final class NemesisLog {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private final LabProgress progress;
  private final Clock clock;

  NemesisLog(LabProgress progress, Clock clock) {
    this.progress = progress;
    this.clock = clock;
  }

  void event(String text) {
    progress.line(TIME.format(LocalTime.ofInstant(clock.instant(), ZoneOffset.UTC)) + " " + text);
  }

  Clock clock() {
    return clock;
  }
}
