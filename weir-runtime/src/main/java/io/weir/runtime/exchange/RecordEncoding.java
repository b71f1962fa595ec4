package io.weir.runtime.exchange;

import io.weir.api.state.StateSerializer;
import java.util.Set;

/**
 * How the records of one edge are encoded when they travel to another process.
 *
 * @param serializer the serializer the stream declared ({@code withSerializer}, {@code returns}),
 *     or null for the exchange's own encoding
 * @param javaSerialized the classes the job allowed Java serialization for ({@code
 *     JobConfig.allowJavaSerialization}): the exchange's own encoding writes no other class of the
 *     job's by Java serialization
 * @param operator the sending operator, named when a record cannot be encoded
 */
public record RecordEncoding(
    StateSerializer<?> serializer, Set<Class<?>> javaSerialized, String operator) {

  /**
   * Whether a record of {@code type}, which has no serializer of its own, may be written by Java
   * serialization: a class of Weir or of the Java platform, or one the job named.
   */
  public boolean allowsJava(Class<?> type) {
    String name = type.getName();
    return name.startsWith("io.weir.") || name.startsWith("java.") || javaSerialized.contains(type);
  }
}
