package io.weir.kafka.source;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A record that failed the job too often, on its way to the dead-letter topic: its key and value as
 * read, and where it came from and why it failed in the headers {@code weir.topic}, {@code
 * weir.partition}, {@code weir.offset}, {@code weir.operator} and {@code weir.cause} (UTF-8).
 */
record DeadLetter(
    byte[] key,
    byte[] value,
    String topic,
    int partition,
    long offset,
    String operator,
    String cause) {

  static final String TOPIC_HEADER = "weir.topic";
  static final String PARTITION_HEADER = "weir.partition";
  static final String OFFSET_HEADER = "weir.offset";
  static final String OPERATOR_HEADER = "weir.operator";
  static final String CAUSE_HEADER = "weir.cause";

  List<Header> headers() {
    return List.of(
        header(TOPIC_HEADER, topic),
        header(PARTITION_HEADER, Integer.toString(partition)),
        header(OFFSET_HEADER, Long.toString(offset)),
        header(OPERATOR_HEADER, operator),
        header(CAUSE_HEADER, cause));
  }

  private static Header header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }
}
