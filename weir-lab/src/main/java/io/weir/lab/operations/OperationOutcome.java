package io.weir.lab.operations;

import io.weir.lab.OutputVerifier;

/**
 * What one operation cell ended in, as counted: the committed output against the input ({@code
 * lost}, {@code duplicated} over {@code in} records expected and {@code out} committed), or a
 * verified loud failure, or a failure to carry the cell out ({@code failure} says why).
 */
record OperationOutcome(Kind kind, long in, long out, long lost, long duplicated, String failure) {

  /** How an operation ended. */
  enum Kind {
    EXACTLY_ONCE("exactly-once"),
    LOSS("loss"),
    DUPLICATES("duplicates"),
    LOSS_AND_DUPLICATES("loss-and-duplicates"),
    /** The job failed with the documented one-line message and committed nothing past it. */
    LOUD_FAILURE("loud-failure"),
    /** The cell could not be carried out or measured; the failure says why. */
    FAILED("failed");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  /** The counted verdict of a job that ran through the operation. */
  static OperationOutcome counted(OutputVerifier.Verdict verdict) {
    Kind kind =
        verdict.lost() > 0
            ? (verdict.duplicated() > 0 ? Kind.LOSS_AND_DUPLICATES : Kind.LOSS)
            : (verdict.duplicated() > 0 ? Kind.DUPLICATES : Kind.EXACTLY_ONCE);
    return new OperationOutcome(
        kind, verdict.in(), verdict.out(), verdict.lost(), verdict.duplicated(), null);
  }

  /**
   * A job that failed as documented: {@code line} is its one-line message, {@code verdict} counts
   * the output committed up to the failure (nothing past it, checked by the caller).
   */
  static OperationOutcome loudFailure(String line, OutputVerifier.Verdict verdict) {
    return new OperationOutcome(
        Kind.LOUD_FAILURE, verdict.in(), verdict.out(), verdict.lost(), verdict.duplicated(), line);
  }

  /**
   * A job that failed although the operation expected it to run through, or a failure that was not
   * the documented one: counted, with {@code why}.
   */
  static OperationOutcome failed(String why, OutputVerifier.Verdict verdict) {
    return new OperationOutcome(
        Kind.FAILED, verdict.in(), verdict.out(), verdict.lost(), verdict.duplicated(), why);
  }

  /** A cell that could not be carried out; nothing was counted. */
  static OperationOutcome notCarriedOut(String why) {
    return new OperationOutcome(Kind.FAILED, 0, 0, 0, 0, why);
  }

  /** Whether this is what the operation must end in. */
  boolean meets(Operation.Expectation expectation) {
    return switch (expectation) {
      case EXACTLY_ONCE -> kind == Kind.EXACTLY_ONCE;
      case LOUD_FAILURE -> kind == Kind.LOUD_FAILURE;
    };
  }

  /** {@code exactly-once}, {@code loss 12}, {@code loud failure}, ... for the table. */
  String label() {
    return switch (kind) {
      case EXACTLY_ONCE, LOUD_FAILURE, FAILED -> kind.label();
      case LOSS -> "loss " + lost;
      case DUPLICATES -> "duplicates " + duplicated;
      case LOSS_AND_DUPLICATES -> "loss " + lost + ", duplicates " + duplicated;
    };
  }
}
