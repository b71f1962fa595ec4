package io.weir.runtime.eventtime;

import static org.awaitility.Awaitility.await;

import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.source.ParallelSourceFunction;
import io.weir.runtime.execution.CollectSink;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Emits event times (the value is the time) in two roles that meet through the sink {@code
 * sinkName}: the steady one emits {@code 0..END-1}; the returning one emits {@code
 * 0..SILENT_FROM-1}, falls silent until the window ending at {@link #FREED_UNTIL} reached the sink
 * (only idleness can let event time get there), then returns ahead of event time with {@code
 * RETURN_AT..END-1} at half the steady pace. The steady one waits at {@link #STEADY_WAITS_AT} until
 * the returning one is well under way, then overtakes it: from there on, the returning one must
 * hold event time back.
 */
final class ReturningSource extends AbstractRichFunction implements ParallelSourceFunction<Long> {
  static final long END = 2_000;
  static final long SILENT_FROM = 100;
  static final long FREED_UNTIL = 500;
  static final long STEADY_WAITS_AT = 700;
  static final long RETURN_AT = 800;
  private static final long RETURNED_AHEAD = 50;
  private static final Map<String, AtomicLong> RETURNING_AT = new ConcurrentHashMap<>();

  /** What a subtask emits. */
  enum Role {
    STEADY,
    RETURNING
  }

  private final String sinkName;
  private final Role role;
  private transient volatile boolean running;

  /** With {@code role} null, subtask 0 is steady and subtask 1 returning. */
  ReturningSource(String sinkName, Role role) {
    this.sinkName = sinkName;
    this.role = role;
  }

  /** Every event time the job reads, by the same rule as the sources. */
  static boolean emitted(Role role, long time) {
    return role == Role.STEADY || time < SILENT_FROM || time >= RETURN_AT;
  }

  @Override
  public void run(SourceContext<Long> context) throws InterruptedException {
    running = true;
    Role mine = role != null ? role : Role.values()[getRuntimeContext().subtaskIndex()];
    AtomicLong returningAt = RETURNING_AT.computeIfAbsent(sinkName, name -> new AtomicLong(-1));
    for (long time = 0; running && time < END; time++) {
      if (!emitted(mine, time)) {
        continue;
      }
      if (mine == Role.RETURNING && time == RETURN_AT) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    CollectSink.<String>results(sinkName).stream()
                        .anyMatch(line -> line.startsWith(window(FREED_UNTIL) + ":")));
      }
      if (mine == Role.STEADY && time == STEADY_WAITS_AT) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> returningAt.get() >= RETURN_AT + RETURNED_AHEAD);
      }
      synchronized (context.getCheckpointLock()) {
        context.collect(time);
      }
      if (mine == Role.RETURNING) {
        returningAt.set(time);
      }
      // Paces the subtasks so that the steady one overtakes the returning one.
      Thread.sleep(mine == Role.STEADY ? 2 : 4);
    }
  }

  /** How the sink shows the window of ten milliseconds that ends at {@code end}. */
  static String window(long end) {
    return "window " + (end - 10) + ".." + end;
  }

  @Override
  public void cancel() {
    running = false;
  }
}
