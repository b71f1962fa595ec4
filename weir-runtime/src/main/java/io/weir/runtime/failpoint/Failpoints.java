package io.weir.runtime.failpoint;

import io.weir.api.functions.RuntimeContext;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The armed failpoints of one job: named points in the checkpoint protocol where a process can be
 * made to die, throw or pause, so a lab can reproduce a crash at an exact step instead of racing a
 * {@code kill -9}.
 *
 * <p>One instance per job and process, made by the runner from {@link
 * io.weir.api.datastream.JobConfig#failpoints()} and kept for the life of the job (across its
 * attempts): the job master's for its checkpoint coordinator, each task manager's for its subtasks.
 * Hits are counted per instance, so two jobs in one JVM never share an armed failpoint or a count.
 * Any thread may call {@link #hit}; with nothing armed it costs one emptiness check.
 */
public final class Failpoints {
  private static final Failpoints NONE = new Failpoints(Map.of());

  private final Map<String, Armed> armed;

  private Failpoints(Map<String, Failpoint> failpoints) {
    this.armed = arm(failpoints);
  }

  /** Nothing armed: every hit passes. */
  public static Failpoints none() {
    return NONE;
  }

  /**
   * The failpoints of {@code configuration} ({@link FailpointConfiguration} syntax), armed; null or
   * blank arms none.
   *
   * @throws IllegalArgumentException naming the offending entry
   */
  public static Failpoints of(String configuration) {
    if (configuration == null || configuration.isBlank()) {
      return new Failpoints(Map.of());
    }
    return new Failpoints(FailpointConfiguration.parse(configuration, "failpoint configuration"));
  }

  /**
   * The failpoints of the job whose subtask {@code context} belongs to: connectors reach their
   * job's failpoints this way, through the runtime context they already get. None when the context
   * comes from elsewhere (a test harness, say).
   */
  public static Failpoints of(RuntimeContext context) {
    return context.commitObserver() instanceof FailpointCommitObserver observer
        ? observer.failpoints()
        : NONE;
  }

  /**
   * Passes the failpoint {@code name}: does nothing unless it is armed and this hit is the one it
   * fires on; then halts the process, throws {@link FailpointException} or pauses.
   */
  public void hit(String name) {
    if (armed.isEmpty()) {
      return;
    }
    Armed failpoint = armed.get(name);
    if (failpoint != null) {
      failpoint.hit();
    }
  }

  /** How often {@code name} was hit since it was armed; 0 when it is not armed. */
  public int hits(String name) {
    Armed failpoint = armed.get(name);
    return failpoint == null ? 0 : failpoint.hits.get();
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
        pause(name, pause.millis());
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

    /** Says so first, so that a test can act on the process while it is parked here. */
    private static void pause(String name, long millis) {
      System.err.println("weir: failpoint " + name + " hit: pausing " + millis + " ms");
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
