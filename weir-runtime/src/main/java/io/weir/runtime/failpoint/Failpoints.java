package io.weir.runtime.failpoint;

/** Placeholder until the failpoint registry lands. */
public final class Failpoints {
  private Failpoints() {}

  public static void hit(String name) {}
}
