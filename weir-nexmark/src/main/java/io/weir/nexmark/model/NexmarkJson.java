package io.weir.nexmark.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Events and query results as JSON, the form they take on Kafka and in result files. */
public final class NexmarkJson {
  // Thread-safe once configured; holds no per-job state.
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private NexmarkJson() {}

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + value + " as JSON", e);
    }
  }

  public static Event event(byte[] json) throws IOException {
    return MAPPER.readValue(json, Event.class);
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
