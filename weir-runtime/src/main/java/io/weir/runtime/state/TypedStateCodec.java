package io.weir.runtime.state;

import io.weir.api.state.StateSerializer;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.types.TypeSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the heap value of one typed state into bytes and back: a value, a list of elements or a map
 * of entries, each through the {@link TypeSerializer}s its descriptor declared. Reading goes
 * through the schemas the bytes were written with, so an older version of the type restores.
 */
final class TypedStateCodec {
  /** How the state's heap value is made of serialized parts. */
  enum Shape {
    VALUE,
    LIST,
    MAP
  }

  private final Shape shape;
  private final List<EvolvingSerializer<Object>> serializers;

  private TypedStateCodec(Shape shape, List<EvolvingSerializer<Object>> serializers) {
    this.shape = shape;
    this.serializers = serializers;
  }

  /** The codec of a state whose serializers are all {@link EvolvingSerializer}s, else null. */
  @SuppressWarnings("unchecked")
  static TypedStateCodec maybeOf(Shape shape, StateSerializer<?>... serializers) {
    List<EvolvingSerializer<Object>> typed = new ArrayList<>();
    for (StateSerializer<?> serializer : serializers) {
      if (!(serializer instanceof EvolvingSerializer<?>)) {
        return null;
      }
      typed.add((EvolvingSerializer<Object>) serializer);
    }
    return new TypedStateCodec(shape, List.copyOf(typed));
  }

  List<byte[]> schemas() {
    return serializers.stream().map(EvolvingSerializer::schema).toList();
  }

  byte[] encode(Object value) {
    try {
      return switch (shape) {
        case VALUE -> serializers.get(0).serialize(value);
        case LIST -> encodeList((List<?>) value);
        case MAP -> encodeMap((Map<?, ?>) value);
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A decoder of bytes written with {@code schemas}.
   *
   * @throws io.weir.api.types.TypeChangedException when a field changed its type
   */
  Decoder decoderOf(List<byte[]> schemas) {
    List<StateSerializer<Object>> readers = new ArrayList<>();
    for (int i = 0; i < serializers.size(); i++) {
      readers.add(serializers.get(i).readerOf(schemas.get(i)));
    }
    return bytes -> {
      try {
        return switch (shape) {
          case VALUE -> readers.get(0).deserialize(bytes);
          case LIST -> decodeList(readers.get(0), bytes);
          case MAP -> decodeMap(readers.get(0), readers.get(1), bytes);
        };
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  /** Reads one state value of the schemas it was made for. */
  interface Decoder {
    Object decode(byte[] bytes);
  }

  private byte[] encodeList(List<?> elements) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(elements.size());
    for (Object element : elements) {
      writeFrame(out, serializers.get(0).serialize(element));
    }
    return bytes.toByteArray();
  }

  private byte[] encodeMap(Map<?, ?> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(entries.size());
    for (Map.Entry<?, ?> entry : entries.entrySet()) {
      writeFrame(out, serializers.get(0).serialize(entry.getKey()));
      writeFrame(out, serializers.get(1).serialize(entry.getValue()));
    }
    return bytes.toByteArray();
  }

  private static ArrayList<Object> decodeList(StateSerializer<Object> reader, byte[] bytes)
      throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    int size = in.readInt();
    ArrayList<Object> elements = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      elements.add(reader.deserialize(readFrame(in)));
    }
    return elements;
  }

  private static HashMap<Object, Object> decodeMap(
      StateSerializer<Object> keys, StateSerializer<Object> values, byte[] bytes)
      throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    int size = in.readInt();
    HashMap<Object, Object> entries = new HashMap<>();
    for (int i = 0; i < size; i++) {
      entries.put(keys.deserialize(readFrame(in)), values.deserialize(readFrame(in)));
    }
    return entries;
  }

  private static void writeFrame(DataOutputStream out, byte[] frame) throws IOException {
    out.writeInt(frame.length);
    out.write(frame);
  }

  private static byte[] readFrame(DataInputStream in) throws IOException {
    byte[] frame = new byte[in.readInt()];
    in.readFully(frame);
    return frame;
  }
}
