package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.windowing.Window;

/**
 * Computes a window's results from its key, its bounds and its records, when the window fires.
 *
 * <p>Called on the task thread that runs the window, one window at a time: {@link #process} once
 * each time a window of a key fires — when event time (or processing time) reaches the window's
 * end, again for each record that arrives within the allowed lateness, or, for a count window, each
 * time it is full. Windows of one key fire in the order of their end; the order between keys is not
 * promised. {@code process} may block the task (and so the whole task's input) and an exception it
 * throws fails the task, which restarts from the last checkpoint.
 *
 * <p>Used alone ({@code window(..).process(f)}), {@code elements} are every record of the window,
 * in arrival order within each merged part, kept in keyed state until the window is cleaned up.
 * Used after a reduce or an aggregate function ({@code window(..).aggregate(agg, f)}), the window
 * keeps only the accumulator and {@code elements} holds the single pre-aggregated value.
 *
 * <p>What is reachable: the key, the window and the time through the {@link Context}; records go
 * out through {@code out}, with the window's {@link Window#maxTimestamp()} as their timestamp, and
 * to side outputs through {@link Context#output}. As a rich function it has a runtime context and
 * {@link #open}/{@link #close}; the keyed state it reaches there is the current key's, but a
 * window's contents are only in {@code elements}. {@code elements} and {@code context} are valid
 * only during the call.
 */
@PublicEvolving
public abstract class ProcessWindowFunction<IN, OUT, KEY, W extends Window>
    extends AbstractRichFunction {

  /** Emits the results of one firing of {@code context.window()} for {@code key}. */
  public abstract void process(
      KEY key, Context<W> context, Iterable<IN> elements, Collector<OUT> out) throws Exception;

  /** The firing window, and the time when it fires. */
  public interface Context<W extends Window> {
    /** The window that fires; for a merged session, the whole merged session. */
    W window();

    /** The operator's event time when the window fires ({@link Long#MIN_VALUE} before any). */
    long currentWatermark();

    long currentProcessingTime();

    /** Emits to a side output, with the window's timestamp. */
    <X> void output(OutputTag<X> tag, X value);
  }
}
