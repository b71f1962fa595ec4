package io.weir.runtime.failpoint;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named points in the checkpoint protocol where a process can be made to die, throw or pause, so a
 * lab can reproduce a crash at an exact step instead of racing a {@code kill -9}.
 *
 * <p>Armed from outside through {@link FailpointConfiguration#SYSTEM_PROPERTY} or {@link
 * FailpointConfiguration#ENVIRONMENT_VARIABLE} when this class loads, or in-process with {@link
 * #configure}. Any thread may call {@link #hit}; with nothing armed it costs one volatile read.
 */
public final class Failpoints {
  private static volatile Map<String, Armed> armed = arm(loadFromEnvironment());

  private Failpoints() {}

  /**
   * Passes the failpoint {@code name}: does nothing unless it is armed and this hit is the one it
   * fires on; then halts the process, throws {@link FailpointException} or pauses.
   */
  public static void hit(String name) {
    Map<String, Armed> current = armed;
    if (current.isEmpty()) {
      return;
    }
    Armed failpoint = current.get(name);
    if (failpoint != null) {
      failpoint.hit();
    }
  }

  /** Replaces the armed failpoints with those of {@code configuration}; hit counts restart. */
  public static void configure(String configuration) {
    configure(FailpointConfiguration.parse(configuration, "failpoint configuration"));
  }

  /** Replaces the armed failpoints; hit counts restart. */
  public static void configure(Map<String, Failpoint> failpoints) {
    for (String name : failpoints.keySet()) {
      if (!FailpointNames.isKnown(name)) {
        throw new IllegalArgumentException(
            "unknown failpoint '" + name + "'; known: " + FailpointNames.known());
      }
    }
    armed = arm(failpoints);
  }

  /** Disarms every failpoint. */
  public static void reset() {
    armed = Map.of();
  }

  /** How often {@code name} was hit since it was armed; 0 when it is not armed. */
  public static int hits(String name) {
    Armed failpoint = armed.get(name);
    return failpoint == null ? 0 : failpoint.hits.get();
  }

  private static Map<String, Failpoint> loadFromEnvironment() {
    // A misspelt failpoint must not let a lab run without its crash: fail the first use loudly.
    return FailpointConfiguration.fromEnvironment();
  }

  private static Map<String, Armed> arm(Map<String, Failpoint> failpoints) {
    if (failpoints.isEmpty()) {
      return Map.of();
    }
    Map<String, Armed> table = new HashMap<>();
    failpoints.forEach((name, failpoint) -> table.put(name, new Armed(failpoint)));
    return Map.copyOf(table);
  }

  /** A failpoint with its hit counter. */
  private static final class Armed {
    private final Failpoint failpoint;
    private final AtomicInteger hits = new AtomicInteger();

    Armed(Failpoint failpoint) {
      this.failpoint = failpoint;
    }

    void hit() {
      if (failpoint.firesOn(hits.incrementAndGet())) {
        fire();
      }
    }

    private void fire() {
      String name = failpoint.name();
      FailpointAction action = failpoint.action();
      if (action instanceof FailpointAction.Halt halt) {
        halt(name, halt.exitCode());
      } else if (action instanceof FailpointAction.Pause pause) {
        pause(pause.millis());
      } else {
        throw new FailpointException(name);
      }
    }

    private static void halt(String name, int exitCode) {
      PrintStream err = System.err;
      err.println("weir: failpoint " + name + " hit: halting");
      err.flush();
      Runtime.getRuntime().halt(exitCode);
    }

    private static void pause(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
