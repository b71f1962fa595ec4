package io.weir.lab.crash;

import io.weir.lab.OutputVerifier;

/**
 * One measured cell of the matrix.
 *
 * @param checkpointId the latest completed checkpoint when the job halted (the one restored with
 *     {@code -s}), or -1 when there was none
 * @param monitors the seed's three monitors right after the crash
 * @param verdict what a {@code read_committed} reader found after the recovery
 */
public record CellResult(
    CrashPoint crash,
    Recovery recovery,
    Outcome outcome,
    long checkpointId,
    Monitors monitors,
    OutputVerifier.Verdict verdict) {

  public CrashPoint.SeedOutcome seedOutcome() {
    return crash.seedOutcome(recovery);
  }

  public boolean agreesWithSeed() {
    return outcome.agreesWith(seedOutcome());
  }
}
