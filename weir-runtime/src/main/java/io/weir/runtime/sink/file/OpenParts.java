package io.weir.runtime.sink.file;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The part files the current transaction of a {@link FileSink} is writing: at most one per bucket.
 * A part is closed, and the bucket's next record opens a new one, once it reaches the roll size.
 * Used on the task thread only.
 */
final class OpenParts {
  private final Map<String, PartFileWriter> byBucket = new HashMap<>();
  private final long rollSizeBytes;

  OpenParts(long rollSizeBytes) {
    this.rollSizeBytes = rollSizeBytes;
  }

  /** Writes {@code record} into the open part of {@code bucket}, opening one when there is none. */
  <T> void write(
      FileTransaction transaction, String bucket, T record, RecordEncoder<? super T> encoder)
      throws IOException {
    PartFileWriter part = byBucket.get(bucket);
    if (part == null) {
      int number = transaction.nextPart(BucketPaths.checked(bucket));
      part = PartFileWriter.create(transaction.stagedPart(number));
      byBucket.put(bucket, part);
    }
    part.write(record, encoder);
    if (part.bytesWritten() >= rollSizeBytes) {
      byBucket.remove(bucket);
      part.syncAndClose();
    }
  }

  /** Flushes, forces to disk and closes every open part: the transaction's pre-commit. */
  void syncAndCloseAll() throws IOException {
    Iterator<PartFileWriter> parts = byBucket.values().iterator();
    while (parts.hasNext()) {
      PartFileWriter part = parts.next();
      parts.remove();
      part.syncAndClose();
    }
  }

  /** Closes every open part without caring for its content, which is about to be deleted. */
  void closeQuietly() {
    byBucket.values().forEach(PartFileWriter::closeQuietly);
    byBucket.clear();
  }
}
