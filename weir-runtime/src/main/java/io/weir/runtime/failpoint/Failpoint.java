package io.weir.runtime.failpoint;

/**
 * One armed failpoint.
 *
 * @param name a {@linkplain FailpointNames known} name
 * @param action what to do when it fires
 * @param onlyOnHit fire only on this hit (1 = the first), or 0 to fire on every hit
 */
public record Failpoint(String name, FailpointAction action, int onlyOnHit) {
  public Failpoint {
    if (onlyOnHit < 0) {
      throw new IllegalArgumentException("hit number must be positive: " + onlyOnHit);
    }
  }

  boolean firesOn(int hit) {
    return onlyOnHit == 0 || onlyOnHit == hit;
  }
}
