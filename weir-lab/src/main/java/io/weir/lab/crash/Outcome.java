package io.weir.lab.crash;

import io.weir.lab.OutputVerifier;

/** What a lab cell measured: exactly-once, or how many ids were lost and duplicated. */
public record Outcome(long lost, long duplicated, String failure) {

  static Outcome of(OutputVerifier.Verdict verdict) {
    return new Outcome(verdict.lost(), verdict.duplicated(), null);
  }

  /** The cell could not be measured, e.g. the restarted job died; {@code why} says so. */
  static Outcome failed(String why) {
    return new Outcome(0, 0, why);
  }

  public boolean exactlyOnce() {
    return failure == null && lost == 0 && duplicated == 0;
  }

  public boolean hasLoss() {
    return failure == null && lost > 0;
  }

  public boolean hasDuplicates() {
    return failure == null && duplicated > 0;
  }

  /** {@code exactly-once}, {@code loss N}, {@code duplicates N}, both, or {@code failed}. */
  public String label() {
    if (failure != null) {
      return "failed";
    }
    if (exactlyOnce()) {
      return "exactly-once";
    }
    if (duplicated == 0) {
      return "loss " + lost;
    }
    return lost == 0 ? "duplicates " + duplicated : "loss " + lost + ", duplicates " + duplicated;
  }

  /** Whether this agrees with what the seed reported. */
  boolean agreesWith(CrashPoint.SeedOutcome seed) {
    return switch (seed) {
      case EXACTLY_ONCE -> exactlyOnce();
      case DATA_LOSS -> hasLoss() && !hasDuplicates();
      case DUPLICATES -> hasDuplicates() && !hasLoss();
    };
  }
}
