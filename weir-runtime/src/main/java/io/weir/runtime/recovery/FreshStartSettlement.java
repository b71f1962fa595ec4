package io.weir.runtime.recovery;

import io.weir.api.graph.Transformation;
import io.weir.api.sink.RecoverableSink;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.TransactionIdSpaces;
import io.weir.runtime.operators.FunctionCopier;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fresh start settles while the new attempt's subtasks start: for each sink that allows it,
 * {@link RecoverableSink#abortLingeringBesideSubtasks} at the parallelism of the sink's task, on a
 * thread of its own. The sinks' own subtasks settle the ids they take when they start, so the two
 * never touch the same transactional id. A failure is logged and fails nothing, as before a fresh
 * start: nothing can be lost, and the sources report an unreachable system themselves.
 */
final class FreshStartSettlement {
  private static final Logger LOG = LoggerFactory.getLogger(FreshStartSettlement.class);

  private final Thread thread;

  private FreshStartSettlement(Thread thread) {
    this.thread = thread;
  }

  /**
   * Starts settling {@code sinks}, operators of {@code graph}, one after another on a new daemon
   * thread that has the caller's context class loader (the job's classes).
   */
  static FreshStartSettlement start(JobGraph graph, List<Transformation> sinks) {
    Thread thread = new Thread(() -> settleAll(graph, sinks), "fresh start sink settlement");
    thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
    thread.setDaemon(true);
    thread.start();
    return new FreshStartSettlement(thread);
  }

  /** Waits until every sink is settled or gave up. */
  void await() throws InterruptedException {
    thread.join();
  }

  private static void settleAll(JobGraph graph, List<Transformation> sinks) {
    for (Transformation operator : sinks) {
      try {
        // The graph's function stays untouched: the settlement works on a copy, as a task would.
        RecoverableSink sink =
            FunctionCopier.copy(
                TransactionIdSpaces.recoverableSinkOf(operator.spec()), operator.displayName());
        sink.abortLingeringBesideSubtasks(graph.vertexOf(operator).parallelism());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        LOG.warn(
            "Sink '{}': lingering transactions of an earlier run were not aborted on a fresh"
                + " start: {}",
            operator.displayName(),
            e.getMessage());
      }
    }
  }
}
