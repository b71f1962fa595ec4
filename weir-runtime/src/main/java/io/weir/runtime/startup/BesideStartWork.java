package io.weir.runtime.startup;

import io.weir.api.functions.RuntimeContext;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;

/**
 * The work that the subtasks of one attempt left running beside their start, unawaited, and whose
 * effect must not land in the job's next attempt. The case it is for: a Kafka sink subtask fences
 * the transactional ids its first transactions do not use beside its start; the next attempt uses
 * the same ids, and a fence reaching the broker after that attempt began a transaction under one of
 * them aborts that transaction, pre-committed or not. So an attempt ends only once every such work
 * has ended ({@link #awaitAll}), and the next attempt deploys after it.
 *
 * <p>One per attempt and task manager, made by whoever owns the attempt's subtasks there; a
 * function reaches its own through its runtime context ({@link #of}). Work added must end by
 * itself, and act on external systems only within {@link #WORK_BOUND} of its start, as nothing
 * cancels it; it starts acting only while {@link #mayStart} (the task manager's lease with its job
 * manager). Any thread.
 *
 * <p>Each subtask of the attempt takes a {@link SubtaskStart} when it is created, and marks it
 * passed once its start ended, however; {@link #status} says whether anything may still be added or
 * still runs, which a task manager reports to its job manager with each heartbeat.
 */
public final class BesideStartWork {
  /**
   * How long after it started a work may still reach an external system: a Kafka sink's fence
   * bounds its admin call by it, and a job manager that lost a task manager waits this long beyond
   * that task manager's lease before it deploys the next attempt without its word.
   */
  public static final Duration WORK_BOUND = Duration.ofSeconds(30);

  private final Set<CompletableFuture<?>> running = ConcurrentHashMap.newKeySet();
  private final Set<SubtaskStart> starting = ConcurrentHashMap.newKeySet();
  private final BooleanSupplier lease;

  /** Work that may always start: one process runs the job manager and the subtasks. */
  public BesideStartWork() {
    this(() -> true);
  }

  /**
   * @param lease true while the task manager's lease with its job manager is valid; read on the
   *     work's thread just before it acts, must not block
   */
  public BesideStartWork(BooleanSupplier lease) {
    this.lease = lease;
  }

  /**
   * True while a work may start acting: false once the task manager lost its lease, when its job
   * manager may already count it as gone and deploy the next attempt elsewhere.
   */
  public boolean mayStart() {
    return lease.getAsBoolean();
  }

  /** What carries a subtask's {@link BesideStartWork} to its functions. */
  public interface Carrier {
    BesideStartWork besideStartWork();
  }

  /**
   * The work of the attempt that {@code context}'s subtask belongs to; when the context comes from
   * elsewhere (a test harness), one that nothing awaits.
   */
  public static BesideStartWork of(RuntimeContext context) {
    return context.commitObserver() instanceof Carrier carrier
        ? carrier.besideStartWork()
        : new BesideStartWork();
  }

  /**
   * One subtask's start, taken when the subtask is created (before its attempt is reported to the
   * job manager), passed on the subtask's thread once its start ended, normally or not: the work a
   * start adds is added before that.
   */
  public final class SubtaskStart {
    private SubtaskStart() {}

    /** From here on this subtask adds no work beside its start. Idempotent. */
    public void passed() {
      starting.remove(this);
    }
  }

  /** A subtask of the attempt is created: {@link #status} is STARTING until it passed its start. */
  public SubtaskStart subtaskCreated() {
    SubtaskStart start = new SubtaskStart();
    starting.add(start);
    return start;
  }

  /**
   * What may still happen beside the starts, as of this call. The subtasks' starts are read before
   * the running work: a start adds its work before it passes, so QUIET is never read while a start
   * may still add work or its work runs.
   */
  public BesideStartStatus status() {
    if (!starting.isEmpty()) {
      return BesideStartStatus.STARTING;
    }
    return running.isEmpty() ? BesideStartStatus.QUIET : BesideStartStatus.WORK_RUNNING;
  }

  /** Keeps {@code work} until it ends, however it ends. */
  public void add(CompletableFuture<?> work) {
    running.add(work);
    work.whenComplete((result, failure) -> running.remove(work));
  }

  /** Waits until every work added so far has ended; a failure is the work's own to report. */
  public void awaitAll() throws InterruptedException {
    for (CompletableFuture<?> work : List.copyOf(running)) {
      try {
        work.get();
      } catch (ExecutionException | CancellationException e) {
        // ended, however
      }
    }
  }
}
