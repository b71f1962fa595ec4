package io.weir.api.source;

import io.weir.api.annotation.Public;

/**
 * A source that can run as several parallel subtasks, each reading its own share. A plain {@link
 * SourceFunction} always runs with parallelism 1.
 */
@Public
public interface ParallelSourceFunction<T> extends SourceFunction<T> {}
