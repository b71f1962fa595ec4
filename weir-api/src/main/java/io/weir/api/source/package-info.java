/**
 * Sources: a {@link io.weir.api.source.ReaderSource} whose {@link io.weir.api.source.SourceReader}
 * the task polls, {@link io.weir.api.source.SourceFunction} for a user's own source that pushes,
 * and sources from elements or a generator for tests and examples.
 */
package io.weir.api.source;
