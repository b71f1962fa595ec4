package io.weir.runtime.jobmaster;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.source.EnumeratedSource;
import io.weir.api.source.SourceSplit;
import io.weir.api.source.SplitEnumerator;
import io.weir.api.source.SplitEnumeratorContext;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.operators.FunctionCopier;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The split enumerators of one attempt's sources, on the job manager. Each is created from what it
 * kept in the restored checkpoint, started before the subtasks deploy, told when a reader's subtask
 * runs, and snapshotted at each checkpoint's trigger into the checkpoint's metadata; its
 * assignments go to the readers' task managers as mail of the source tasks.
 *
 * <p>Every call into an enumerator holds this object's lock, so they never run at once: from the
 * attempt's thread (a reader registered), the checkpoint coordinator's (a snapshot, under the
 * coordinator's lock, which is taken first) and the enumerators' own thread (periodic handlers).
 * Periodic work runs on that thread outside the lock, so a slow listing does not hold up a
 * checkpoint's trigger. An enumerator's failure fails the attempt.
 */
final class SourceEnumerators implements CheckpointCoordinator.MasterState, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SourceEnumerators.class);
  private static final StateSerializer<Serializable> STATE = StateSerializer.java();
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final Object lock = new Object();
  private final Map<String, Enumerated> byVertex = new LinkedHashMap<>();
  private final JobGraph graph;
  private final CompletedCheckpoint restored;
  private final List<TaskManagerGateway> slots;
  private final Consumer<Throwable> onFailure;
  private final ScheduledExecutorService thread;
  // Guarded by lock.
  private boolean closed;

  /**
   * @param restored the checkpoint the attempt restores from, or null
   * @param slots the task manager of each slot: slot {@code i} runs subtask {@code i}
   * @param onFailure told, once or more, when an enumerator fails
   */
  SourceEnumerators(
      JobGraph graph,
      CompletedCheckpoint restored,
      List<TaskManagerGateway> slots,
      Consumer<Throwable> onFailure) {
    this.graph = graph;
    this.restored = restored;
    this.slots = List.copyOf(slots);
    this.onFailure = onFailure;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "weir split enumerators " + graph.jobName());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Creates the enumerators of the graph's enumerated sources, restored from the checkpoint, and
   * starts them; before the subtasks deploy.
   */
  void start() throws Exception {
    synchronized (lock) {
      for (JobVertex vertex : graph.vertices()) {
        if (vertex.isSource()) {
          maybeCreate(vertex);
        }
      }
      for (Enumerated enumerated : byVertex.values()) {
        enumerated.enumerator.start();
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void maybeCreate(JobVertex vertex) throws Exception {
    Transformation head = vertex.head();
    if (!(head.spec() instanceof OperatorSpec.Source source)
        || !(source.function() instanceof EnumeratedSource<?, ?, ?>)) {
      return;
    }
    EnumeratedSource copy = FunctionCopier.copy((EnumeratedSource) source.function(), head.name());
    byte[] state = restored == null ? null : restored.enumeratorStates().get(head.uid());
    Serializable restoredState = state == null ? null : STATE.deserialize(state);
    Enumerated enumerated = new Enumerated(vertex, head.uid());
    Optional<SplitEnumerator> enumerator = copy.createEnumerator(enumerated, restoredState);
    if (enumerator.isPresent()) {
      enumerated.enumerator = enumerator.get();
      byVertex.put(vertex.id(), enumerated);
    }
  }

  /** The source tasks whose readers get their splits from an enumerator here; after start. */
  Set<String> enumeratedSources() {
    synchronized (lock) {
      return Set.copyOf(byVertex.keySet());
    }
  }

  /** The subtask runs: if it reads an enumerated source, its reader registers. */
  void taskRunning(SubtaskKey subtask) {
    synchronized (lock) {
      Enumerated enumerated = byVertex.get(subtask.taskId());
      if (enumerated == null || closed) {
        return;
      }
      enumerated.registered.add(subtask.subtaskIndex());
      try {
        enumerated.enumerator.addReader(subtask.subtaskIndex());
      } catch (Exception e) {
        fail(enumerated, e);
      }
    }
  }

  @Override
  public Map<String, byte[]> snapshot(long checkpointId) throws Exception {
    Map<String, byte[]> states = new TreeMap<>();
    synchronized (lock) {
      for (Enumerated enumerated : byVertex.values()) {
        Serializable state = enumerated.enumerator.snapshotState(checkpointId);
        states.put(enumerated.uid, STATE.serialize(state));
      }
    }
    return states;
  }

  /**
   * Stops the periodic work, waits for a run of it to end (it may use what the enumerator holds),
   * then closes every enumerator; idempotent.
   */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    thread.shutdownNow();
    try {
      if (!thread.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("The split enumerators' periodic work did not end within {}", CLOSE_TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (lock) {
      for (Enumerated enumerated : byVertex.values()) {
        try {
          enumerated.enumerator.close();
        } catch (Exception e) {
          LOG.warn("Cannot close the split enumerator of {}: {}", enumerated.name(), e.toString());
        }
      }
    }
  }

  private void fail(Enumerated enumerated, Throwable cause) {
    onFailure.accept(
        new IllegalStateException(
            "The split enumerator of " + enumerated.name() + " failed: " + cause.getMessage(),
            cause));
  }

  /** One source's enumerator and what its context knows. */
  private final class Enumerated implements SplitEnumeratorContext<SourceSplit> {
    private final JobVertex vertex;
    private final String uid;
    private final Set<Integer> registered = new HashSet<>();

    @SuppressWarnings("rawtypes")
    private SplitEnumerator enumerator;

    Enumerated(JobVertex vertex, String uid) {
      this.vertex = vertex;
      this.uid = uid;
    }

    String name() {
      return "'" + vertex.head().displayName() + "'";
    }

    @Override
    public int parallelism() {
      return vertex.parallelism();
    }

    @Override
    public OptionalLong restoredCheckpointId() {
      return restored == null ? OptionalLong.empty() : OptionalLong.of(restored.checkpointId());
    }

    @Override
    public void assignSplits(int subtaskIndex, List<SourceSplit> splits) {
      if (!registered.contains(subtaskIndex)) {
        throw new IllegalStateException(
            "Reader " + subtaskIndex + " of " + name() + " is not registered");
      }
      // An empty assignment is sent too: it tells the reader that it has no split for now.
      slots.get(subtaskIndex).assignSplits(vertex.id(), subtaskIndex, List.copyOf(splits));
    }

    @Override
    public void signalNoMoreSplits(int subtaskIndex) {
      if (!registered.contains(subtaskIndex)) {
        throw new IllegalStateException(
            "Reader " + subtaskIndex + " of " + name() + " is not registered");
      }
      slots.get(subtaskIndex).signalNoMoreSplits(vertex.id(), subtaskIndex);
    }

    @Override
    public <R> void callPeriodically(
        Callable<R> work, BiConsumer<R, Throwable> handler, Duration period) {
      thread.scheduleWithFixedDelay(
          () -> {
            R result = null;
            Throwable failure = null;
            try {
              result = work.call();
            } catch (Throwable t) {
              failure = t;
            }
            synchronized (lock) {
              if (closed) {
                return;
              }
              try {
                handler.accept(result, failure);
              } catch (Throwable t) {
                fail(this, t);
              }
            }
          },
          period.toMillis(),
          period.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }
}
