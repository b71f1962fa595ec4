package io.weir.nexmark.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Events and query results as JSON, the form they take on Kafka and in result files. */
public final class NexmarkJson {
  // Thread-safe once configured; holds no per-job state.
  private static final ObjectMapper MAPPER = new ObjectMapper();
  // Made once: ObjectMapper.readValue resolves the type and finds its deserializer on every call.
  private static final ObjectReader EVENT_READER = MAPPER.readerFor(Event.class);
  // The mapper's own factory, so the streaming paths parse and generate as the binder does.
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private NexmarkJson() {}

  /**
   * {@code value} as Jackson's binder writes it; a flat record's row ({@link FlatRecordJsonWriter})
   * is written to the same bytes through the streaming generator alone.
   */
  public static byte[] bytes(Object value) {
    FlatRecordJsonWriter flat = value == null ? null : FlatRecordJsonWriter.of(value.getClass());
    if (flat != null) {
      return flat.write(FACTORY, value);
    }
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + value + " as JSON", e);
    }
  }

  /**
   * The event {@code json} holds, as Jackson's binder reads it; one of the form the generator
   * writes ({@link EventJsonReader}) is read through the streaming parser alone.
   */
  public static Event event(byte[] json) throws IOException {
    Event event = EventJsonReader.read(FACTORY, json);
    return event != null ? event : EVENT_READER.readValue(json);
  }

  /** A result row read back as a JSON object. */
  public static JsonNode tree(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("not a JSON result row: " + json, e);
    }
  }

  /** A row's values as a JSON array, the canonical form the check compares. */
  public static String array(Iterable<String> values) {
    return MAPPER.createArrayNode().addAll(toNodes(values)).toString();
  }

  private static java.util.List<JsonNode> toNodes(Iterable<String> values) {
    java.util.List<JsonNode> nodes = new java.util.ArrayList<>();
    for (String value : values) {
      nodes.add(value == null ? MAPPER.nullNode() : MAPPER.getNodeFactory().textNode(value));
    }
    return nodes;
  }
}
