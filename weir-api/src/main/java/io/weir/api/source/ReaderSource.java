package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.Function;

/**
 * A source whose records its task pulls from a {@link SourceReader}, on the task's own thread,
 * between checkpoint barriers, notifications and timers. The function itself keeps its life cycle
 * as any other: it may be a {@link io.weir.api.functions.RichFunction} and a {@link
 * io.weir.api.checkpoint.CheckpointedFunction} for state beside the reader's splits.
 *
 * <p>Contract: {@link #createReader} is called once per subtask on the task's thread, after the
 * function's {@code initializeState} and {@code open}, before the task reports running and before
 * any checkpoint. It may block (a connection, a start position). An exception fails the task.
 */
@PublicEvolving
public interface ReaderSource<T> extends Function {
  SourceReader<T, ? extends SourceSplit> createReader(SourceReaderContext context) throws Exception;
}
