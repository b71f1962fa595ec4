package io.weir.runtime.sink.file;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Chooses the bucket of each record of a {@link FileSink}: the directory, relative to the output
 * directory, that the record's part file is committed into, such as {@code dt=2026-12-07/hm=10:15}.
 *
 * <p>Called on the task thread for every record, before the record is encoded, so it should be a
 * cheap function of the record alone. The path names directories separated by {@code /}; each name
 * is neither empty, nor {@code .} or {@code ..}, nor hidden (starting with a dot: readers skip
 * hidden files, and the staging directory is one). The empty path is the output directory itself. A
 * path that breaks these rules, or {@code null}, fails the record's task with one line naming the
 * path.
 *
 * <p>A transaction keeps one part file open per bucket it wrote to until the checkpoint's barrier
 * (or until the part reaches the roll size), so a transaction that touches many buckets holds as
 * many open files.
 */
@PublicEvolving
@FunctionalInterface
public interface BucketAssigner<T> extends Serializable {
  /** The bucket of {@code record}: a relative path, or {@code ""} for the output directory. */
  String bucketOf(T record);
}
