package io.weir.testing;

import io.weir.api.sink.SinkFunction;
import java.util.List;

/**
 * One fresh external system and the sink that writes to it, for one cell of a {@link
 * SinkCrashMatrix}: e.g. an empty output directory and a {@code FileSink} on it.
 *
 * @param <IN> the records the sink writes
 */
public interface SinkFixture<IN> extends AutoCloseable {
  /** Makes a fresh fixture for each cell, e.g. with a new temporary directory. */
  @FunctionalInterface
  interface Factory<IN> {
    SinkFixture<IN> create() throws Exception;
  }

  /**
   * A new sink instance, as a restarted process builds it; called at the start and after every
   * crash. Instances of one fixture write to the same external system.
   */
  SinkFunction<IN> newSink();

  /**
   * What a reader of the external system sees as committed now (e.g. {@code read_committed}, or the
   * visible files), every record as often as it is there.
   */
  List<IN> committed() throws Exception;

  /** Releases the external system after the cell; default: nothing. */
  @Override
  default void close() throws Exception {}
}
