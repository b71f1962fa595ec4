package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;

/**
 * Emits what a pair of an interval join makes: a left record and a right record of the same key
 * whose timestamps satisfy {@code left + lower <= right <= left + upper}.
 *
 * <p>Called on the task thread of the join, never concurrently, once for every such pair, as soon
 * as the later of the two records arrives (the earlier one waits in keyed state). Pairs of one key
 * come in the order their later records arrived; nothing is promised across keys. The emitted
 * records carry the larger of the two timestamps. Keyed state of the current key is reachable from
 * the runtime context; the join's own buffers are not. An exception fails the task, and the job
 * restarts from its latest checkpoint, where each pair is made again exactly once in the output of
 * an exactly-once job.
 */
@PublicEvolving
public abstract class ProcessJoinFunction<IN1, IN2, OUT> extends AbstractRichFunction {

  public abstract void processElement(IN1 left, IN2 right, Context context, Collector<OUT> out)
      throws Exception;

  /** The pair being joined; valid only during the call. */
  public interface Context {
    long leftTimestamp();

    long rightTimestamp();

    /** The timestamp of the emitted records: the larger of the two. */
    long timestamp();

    <X> void output(OutputTag<X> tag, X value);
  }
}
