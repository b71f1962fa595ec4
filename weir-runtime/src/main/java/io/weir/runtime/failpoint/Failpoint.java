package io.weir.runtime.failpoint;

/**
 * One armed failpoint.
 *
 * @param name a {@linkplain FailpointNames known} name
 * @param action what to do when it fires
 * @param firstHit fire from this hit on (1 = the first), or 0 to fire on every hit
 * @param lastHit fire up to this hit, inclusive; ignored when {@code firstHit} is 0
 */
public record Failpoint(String name, FailpointAction action, int firstHit, int lastHit) {
  public Failpoint {
    if (firstHit < 0) {
      throw new IllegalArgumentException("hit number must be positive: " + firstHit);
    }
    if (firstHit > 0 && lastHit < firstHit) {
      throw new IllegalArgumentException(
          "the last hit " + lastHit + " comes before the first " + firstHit);
    }
  }

  /** A failpoint that fires only on hit {@code onlyOnHit}, or on every hit when it is 0. */
  public Failpoint(String name, FailpointAction action, int onlyOnHit) {
    this(name, action, onlyOnHit, onlyOnHit);
  }

  boolean firesOn(int hit) {
    return firstHit == 0 || (hit >= firstHit && hit <= lastHit);
  }
}
