package io.weir.api.state;

import io.weir.api.annotation.PublicEvolving;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Serializers for state values and keys. Backends that keep state in serialized form (RocksDB)
 * serialize on every access, so the default, {@link #tagged()}, writes the common types (long, int,
 * double, boolean, string, byte array) in a byte or two more than their size and uses Java
 * serialization only for other types.
 */
@PublicEvolving
public final class StateSerializers {
  private StateSerializers() {}

  /** One type byte, then the value; Java serialization for types without a tag of their own. */
  @SuppressWarnings("unchecked")
  public static <T> StateSerializer<T> tagged() {
    return (StateSerializer<T>) TaggedSerializer.INSTANCE;
  }

  public static StateSerializer<Long> longs() {
    return new LongSerializer();
  }

  public static StateSerializer<String> strings() {
    return new StringSerializer();
  }

  /** Eight bytes, big-endian. */
  static final class LongSerializer implements StateSerializer<Long> {
    @Override
    public byte[] serialize(Long value) {
      return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    @Override
    public Long deserialize(byte[] bytes) {
      return ByteBuffer.wrap(bytes).getLong();
    }
  }

  /** UTF-8. */
  static final class StringSerializer implements StateSerializer<String> {
    @Override
    public byte[] serialize(String value) {
      return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** The fast default; equal values of a tagged type always give equal bytes (keys rely on it). */
  static final class TaggedSerializer implements StateSerializer<Object> {
    static final TaggedSerializer INSTANCE = new TaggedSerializer();
    private static final byte LONG = 1;
    private static final byte INTEGER = 2;
    private static final byte DOUBLE = 3;
    private static final byte BOOLEAN = 4;
    private static final byte STRING = 5;
    private static final byte BYTES = 6;
    private static final byte JAVA = 127;
    private static final StateSerializer<Object> JAVA_SERIALIZER = StateSerializer.java();

    @Override
    public byte[] serialize(Object value) {
      if (value instanceof Long number) {
        return ByteBuffer.allocate(1 + Long.BYTES).put(LONG).putLong(number).array();
      }
      if (value instanceof Integer number) {
        return ByteBuffer.allocate(1 + Integer.BYTES).put(INTEGER).putInt(number).array();
      }
      if (value instanceof Double number) {
        return ByteBuffer.allocate(1 + Double.BYTES).put(DOUBLE).putDouble(number).array();
      }
      if (value instanceof Boolean flag) {
        return new byte[] {BOOLEAN, (byte) (flag ? 1 : 0)};
      }
      if (value instanceof String text) {
        return tagged(STRING, text.getBytes(StandardCharsets.UTF_8));
      }
      if (value instanceof byte[] bytes) {
        return tagged(BYTES, bytes);
      }
      return tagged(JAVA, JAVA_SERIALIZER.serialize(value));
    }

    @Override
    public Object deserialize(byte[] bytes) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
      return switch (bytes[0]) {
        case LONG -> buffer.getLong();
        case INTEGER -> buffer.getInt();
        case DOUBLE -> buffer.getDouble();
        case BOOLEAN -> bytes[1] != 0;
        case STRING -> new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8);
        case BYTES -> Arrays.copyOfRange(bytes, 1, bytes.length);
        case JAVA -> JAVA_SERIALIZER.deserialize(Arrays.copyOfRange(bytes, 1, bytes.length));
        default -> throw new IllegalStateException("Unknown state value tag " + bytes[0]);
      };
    }

    private static byte[] tagged(byte tag, byte[] payload) {
      byte[] bytes = new byte[payload.length + 1];
      bytes[0] = tag;
      System.arraycopy(payload, 0, bytes, 1, payload.length);
      return bytes;
    }

    private Object readResolve() {
      return INSTANCE;
    }
  }
}
