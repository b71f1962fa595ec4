package io.weir.runtime.graph;

import io.weir.api.datastream.JobConfig;
import io.weir.api.graph.Transformation;
import io.weir.api.state.StateSerializer;
import io.weir.api.types.TypeSerializer;
import io.weir.api.types.UnsupportedTypeException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The serializer of each operator's records, chosen once when the job is built: the one the stream
 * was given ({@code withSerializer}), else the default serializer of the class it declared ({@code
 * returns}), else none (the exchange's own encoding). Every declared class is checked, chained or
 * not, so a type without a serializer fails the build whatever the placement.
 */
final class RecordSerializers {
  private final Map<Transformation, StateSerializer<?>> serializers = new HashMap<>();

  RecordSerializers(List<Transformation> transformations, JobConfig config) {
    for (Transformation t : transformations) {
      if (t.serializer() != null) {
        serializers.put(t, t.serializer());
      } else if (t.recordType() != null) {
        serializers.put(t, defaultSerializer(t, config));
      }
    }
  }

  /** The serializer of {@code t}'s records, or null for the exchange's own encoding. */
  StateSerializer<?> of(Transformation t) {
    return serializers.get(t);
  }

  private static StateSerializer<?> defaultSerializer(Transformation t, JobConfig config) {
    try {
      return TypeSerializer.of(t.recordType(), config.javaSerializedTypes());
    } catch (UnsupportedTypeException e) {
      throw new IllegalArgumentException(
          "The records of operator '"
              + t.displayName()
              + "' cannot be serialized: "
              + e.getMessage(),
          e);
    }
  }
}
