package io.weir.runtime.sink.file;

import io.weir.api.annotation.PublicEvolving;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;

/**
 * Writes one record into a part file. Called on the task thread for every record, so it should
 * write straight into {@code out} without building intermediate copies; {@code out} is buffered.
 */
@PublicEvolving
@FunctionalInterface
public interface RecordEncoder<T> extends Serializable {
  void encode(T record, OutputStream out) throws IOException;

  /** The record's {@code toString()} in UTF-8, then a line feed. */
  static <T> RecordEncoder<T> toStringLines() {
    return (record, out) -> {
      out.write(String.valueOf(record).getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    };
  }
}
