package io.weir.lab.nemesis;

import java.time.Duration;
import java.time.Instant;

/**
 * One fault the nemesis injected and healed.
 *
 * @param kind what was done
 * @param target what it was done to, e.g. {@code broker-2 (transaction coordinator)} or {@code job
 *     -/-> broker-1}
 * @param start when it was injected
 * @param end when it was healed (for a kill: when the process was started again)
 */
public record Fault(FaultKind kind, String target, Instant start, Instant end) {
  public Duration length() {
    return Duration.between(start, end);
  }
}
