package io.weir.runtime.task;

import io.weir.api.functions.OutputTag;
import io.weir.runtime.exchange.RecordWriter;

/** A record writer of a task and the side output it carries (null for the main output). */
public record OutputEdge(RecordWriter writer, OutputTag<?> sideOutput) {}
