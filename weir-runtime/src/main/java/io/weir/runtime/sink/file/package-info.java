/**
 * An exactly-once sink into files, built on the two-phase commit: records are written to
 * in-progress part files per checkpoint and renamed into place when the checkpoint completes. Jobs
 * use {@link io.weir.runtime.sink.file.FileSink#forDirectory}; the other classes are its parts.
 */
package io.weir.runtime.sink.file;
