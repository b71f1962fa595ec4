/**
 * An exactly-once sink into files: records are written to in-progress part files per checkpoint and
 * renamed into place when the checkpoint completes.
 */
package io.weir.api.sink.file;
