package io.weir.runtime.failpoint;

/** Thrown where a failpoint armed with {@code throw} is hit. */
public final class FailpointException extends RuntimeException {
  private final String failpoint;

  public FailpointException(String failpoint) {
    super("failpoint " + failpoint + " hit: throwing");
    this.failpoint = failpoint;
  }

  public String failpoint() {
    return failpoint;
  }
}
