package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
import java.util.List;

/**
 * One Nexmark query, twice: as Weir operators over the event stream, and as SQL over tables {@code
 * person}, {@code auction} and {@code bid} (one column per field of the records, times in epoch
 * millis) that the correctness check runs on the same events.
 *
 * <p>The two must agree row for row on any bounded input: the SQL selects one column per component
 * of the result record {@code R}, named as the component, and where the result would otherwise
 * depend on arrival order (ties, late events) the query defines the order. {@link #apply} is called
 * once, on the thread that builds the job; the functions it adds run on the job's task threads.
 *
 * @param <R> a record: it goes to Kafka as a JSON object with one field per component
 */
public interface NexmarkQuery<R> extends Serializable {
  /** The query's number, as in {@code q7}. */
  String name();

  /** One line: what the query asks. */
  String description();

  /** Adds the query's operators to the stream of events (with event-time timestamps). */
  DataStream<R> apply(DataStream<Event> events);

  /** The same query in DuckDB's SQL. */
  String sql();

  /**
   * The columns whose values name the directory each result goes into when results are written to
   * files, Hive-style ({@code dt=2026-01-01/hm=23:59}); none, the default, for a query whose
   * results all go into one directory. {@link #partitionOf} must name the same directory.
   */
  default List<String> partitionColumns() {
    return List.of();
  }

  /**
   * The directory of {@code result} below the results directory: {@code column=value} for each of
   * the {@link #partitionColumns}, joined by {@code /}; {@code ""} for the results directory
   * itself. Called on the task thread for each result written to files.
   */
  default String partitionOf(R result) {
    return "";
  }
}
