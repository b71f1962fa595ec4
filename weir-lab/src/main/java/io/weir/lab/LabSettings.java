package io.weir.lab;

import java.time.Duration;

/**
 * How hard the lab pushes one cell.
 *
 * @param ratePerSecond input records per second while the job runs towards its crash
 * @param recordsAfterRestart records sent once the job has been restarted
 * @param crashHit on which pass of the crash point's failpoint the job halts (1 = first)
 * @param timeout how long each wait (crash, settling) may take
 */
public record LabSettings(
    long ratePerSecond, long recordsAfterRestart, int crashHit, Duration timeout) {
  public LabSettings {
    if (ratePerSecond < 1 || recordsAfterRestart < 0 || crashHit < 1) {
      throw new IllegalArgumentException(
          "rate, records and crash hit must be positive: "
              + ratePerSecond
              + ", "
              + recordsAfterRestart
              + ", "
              + crashHit);
    }
  }
}
