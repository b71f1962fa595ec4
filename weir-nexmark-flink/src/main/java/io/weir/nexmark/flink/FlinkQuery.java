package io.weir.nexmark.flink;

import io.weir.nexmark.model.Event;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A Nexmark query written with Flink's DataStream API, the counterpart of a Weir query of the same
 * name ({@code io.weir.nexmark.queries}): the same result rows, as the same records, so that both
 * engines write the same JSON. {@link #apply} is called once, on the thread that builds the job.
 */
@FunctionalInterface
interface FlinkQuery {
  /** Adds the query's operators to the events (with event-time timestamps and watermarks). */
  DataStream<?> apply(DataStream<Event> events);
}
