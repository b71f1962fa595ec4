package io.weir.api.source;

/**
 * A source that can run as several parallel subtasks, each reading its own share. A plain {@link
 * SourceFunction} always runs with parallelism 1.
 */
public interface ParallelSourceFunction<T> extends SourceFunction<T> {}
