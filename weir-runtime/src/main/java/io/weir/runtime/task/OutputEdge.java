package io.weir.runtime.task;

import io.weir.api.functions.OutputTag;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.exchange.RecordWriter;

/**
 * A record writer of a task and the side output it carries (null for the main output).
 *
 * @param serializer the records' declared serializer (null for none), with which the records a
 *     checkpoint barrier overtook in this output are stored
 * @param broadcast whether the edge sends every record to every target
 */
public record OutputEdge(
    RecordWriter writer,
    OutputTag<?> sideOutput,
    StateSerializer<?> serializer,
    boolean broadcast) {}
