package io.weir.runtime.checkpoint.storage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.runtime.checkpoint.CheckpointMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The {@code _metadata} file: JSON a person can read, with a CRC32 of its own content.
 *
 * <pre>
 * { "format": "weir-checkpoint-metadata", "version": 1,
 *   "metadata": { ...CheckpointMetadata... }, "checksum": "crc32:1a2b3c4d" }
 * </pre>
 *
 * The checksum covers the compact serialization of the {@code metadata} object, which Jackson
 * produces the same way from the written record and from the parsed tree; so any change to a name
 * or value is detected, while re-indenting the file is not an error.
 */
public final class MetadataFormat {
  /** The file name inside a checkpoint or savepoint directory. */
  public static final String FILE_NAME = "_metadata";

  static final String FORMAT = "weir-checkpoint-metadata";
  static final int VERSION = 1;

  /** How every written file ends: the closing brace and a line end. */
  private static final String END = "}\n";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper COMPACT = new ObjectMapper();

  private MetadataFormat() {}

  public static byte[] toBytes(CheckpointMetadata metadata) {
    JsonNode body = MAPPER.valueToTree(metadata);
    ObjectNode file = MAPPER.createObjectNode();
    file.put("format", FORMAT);
    file.put("version", VERSION);
    file.set("metadata", body);
    file.put("checksum", checksumOf(body));
    try {
      return (MAPPER.writeValueAsString(file) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("metadata of checkpoint " + metadata.checkpointId(), e);
    }
  }

  /**
   * Parses and verifies {@code _metadata}.
   *
   * @throws IOException whose message is the reason: {@code _metadata truncated}, {@code checksum
   *     mismatch in _metadata}, ...
   */
  public static CheckpointMetadata parse(byte[] bytes) throws IOException {
    JsonNode file = readTree(bytes);
    if (!file.isObject() || !FORMAT.equals(file.path("format").asText())) {
      throw new IOException(FILE_NAME + " is not Weir checkpoint metadata");
    }
    int version = file.path("version").asInt(-1);
    if (version != VERSION) {
      throw new IOException(FILE_NAME + " format version " + version + " is not supported");
    }
    JsonNode body = file.get("metadata");
    if (body == null || !body.isObject() || !file.path("checksum").isTextual()) {
      throw new IOException(FILE_NAME + " corrupt: metadata or checksum missing");
    }
    if (!checksumOf(body).equals(file.get("checksum").asText())) {
      throw new IOException("checksum mismatch in " + FILE_NAME);
    }
    try {
      return MAPPER.treeToValue(body, CheckpointMetadata.class);
    } catch (JsonProcessingException e) {
      throw new IOException(FILE_NAME + " corrupt: " + e.getOriginalMessage(), e);
    }
  }

  /** Whether {@code bytes} say "savepoint"; false for anything unreadable. */
  static boolean isSavepoint(byte[] bytes) {
    try {
      return MAPPER.readTree(bytes).path("metadata").path("savepoint").asBoolean(false);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * A file that does not parse is truncated if it ends early or lacks the final line end the writer
   * always puts after the closing brace; otherwise it is corrupt.
   */
  private static JsonNode readTree(byte[] bytes) throws IOException {
    try {
      JsonNode tree = MAPPER.readTree(bytes);
      if (tree == null || tree.isMissingNode()) {
        throw new IOException(FILE_NAME + " truncated");
      }
      return tree;
    } catch (JsonProcessingException e) {
      boolean truncated = e instanceof JsonEOFException || !endsWith(bytes, END);
      throw new IOException(FILE_NAME + (truncated ? " truncated" : " corrupt: not valid JSON"), e);
    }
  }

  private static boolean endsWith(byte[] bytes, String end) {
    byte[] suffix = end.getBytes(StandardCharsets.UTF_8);
    return bytes.length >= suffix.length
        && Arrays.equals(
            bytes, bytes.length - suffix.length, bytes.length, suffix, 0, suffix.length);
  }

  private static String checksumOf(JsonNode body) {
    CRC32 crc = new CRC32();
    try {
      crc.update(COMPACT.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("serializing a JSON tree failed", e);
    }
    return String.format("crc32:%08x", crc.getValue());
  }
}
