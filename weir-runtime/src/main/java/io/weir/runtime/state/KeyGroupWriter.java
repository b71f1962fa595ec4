package io.weir.runtime.state;

import static io.weir.runtime.state.HeapKeyGroupFormat.END;
import static io.weir.runtime.state.HeapKeyGroupFormat.HEADER_BYTES;
import static io.weir.runtime.state.HeapKeyGroupFormat.INTEGER;
import static io.weir.runtime.state.HeapKeyGroupFormat.LONG;
import static io.weir.runtime.state.HeapKeyGroupFormat.MAX_UTF_CHARS;
import static io.weir.runtime.state.HeapKeyGroupFormat.OBJECTS;
import static io.weir.runtime.state.HeapKeyGroupFormat.SERIALIZED;
import static io.weir.runtime.state.HeapKeyGroupFormat.STRING;
import static io.weir.runtime.state.HeapKeyGroupFormat.TIMER_TIMES;
import static io.weir.runtime.state.HeapKeyGroupFormat.TYPED;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes the key groups of one heap snapshot in the {@link HeapKeyGroupFormat}, one after the
 * other: the states of a key group, then {@link #takeKeyGroup()} or {@link #writeKeyGroupTo}. Its
 * buffers are reused from one key group to the next, so what it holds is bounded by the largest key
 * group, not by the state. Used by one thread, for one snapshot.
 */
final class KeyGroupWriter {
  private final Buffer states = new Buffer();
  private final DataOutputStream out = new DataOutputStream(states);
  private final Buffer serialized = new Buffer();
  private ObjectOutputStream serializedObjects;
  private boolean empty = true;

  /** Writes a typed state's entries as {@code encode} turns each value into bytes. */
  <V> void typedState(
      String name, List<byte[]> schemas, Map<?, V> entries, Function<V, byte[]> encode) {
    try {
      startState(TYPED, name, entries.size());
      out.writeInt(schemas.size());
      for (byte[] schema : schemas) {
        out.writeInt(schema.length);
        out.write(schema);
      }
      for (Map.Entry<?, V> entry : entries.entrySet()) {
        writeObject(entry.getKey());
        byte[] value = encode.apply(entry.getValue());
        out.writeInt(value.length);
        out.write(value);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write state '" + name + "': " + e, e);
    }
  }

  /** Writes a state whose keys and values are kept as objects. */
  void objectState(String name, Map<?, ?> entries) {
    try {
      startState(OBJECTS, name, entries.size());
      for (Map.Entry<?, ?> entry : entries.entrySet()) {
        writeObject(entry.getKey());
        writeObject(entry.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write state '" + name + "': " + e, e);
    }
  }

  /** Whether no state was written since the last key group was taken. */
  boolean isEmpty() {
    return empty;
  }

  /**
   * The bytes of the key group whose states were written since the last call, or null when none
   * were; the writer is then ready for the next key group.
   */
  byte[] takeKeyGroup() {
    if (empty) {
      return null;
    }
    finishKeyGroup();
    byte[] keyGroup = new byte[HEADER_BYTES + states.size() + serialized.size()];
    ByteBuffer.wrap(keyGroup)
        .putInt(HeapKeyGroupFormat.MAGIC)
        .put(HeapKeyGroupFormat.VERSION)
        .putInt(states.size())
        .put(states.bytes(), 0, states.size())
        .put(serialized.bytes(), 0, serialized.size());
    reset();
    return keyGroup;
  }

  /**
   * Writes the key group whose states were written since the last call to {@code target}, as {@link
   * #takeKeyGroup()} would return it but without a copy of it, and returns its length; the writer
   * is then ready for the next key group. Call only when not {@link #isEmpty()}.
   */
  int writeKeyGroupTo(OutputStream target) throws IOException {
    finishKeyGroup();
    byte[] header =
        ByteBuffer.allocate(HEADER_BYTES)
            .putInt(HeapKeyGroupFormat.MAGIC)
            .put(HeapKeyGroupFormat.VERSION)
            .putInt(states.size())
            .array();
    target.write(header);
    target.write(states.bytes(), 0, states.size());
    target.write(serialized.bytes(), 0, serialized.size());
    int length = HEADER_BYTES + states.size() + serialized.size();
    reset();
    return length;
  }

  private void finishKeyGroup() {
    try {
      out.writeByte(END);
      if (serializedObjects != null) {
        serializedObjects.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void reset() {
    states.reset();
    serialized.reset();
    serializedObjects = null;
    empty = true;
  }

  private void startState(byte kind, String name, int entries) throws IOException {
    empty = false;
    out.writeByte(kind);
    out.writeUTF(name);
    out.writeInt(entries);
  }

  private void writeObject(Object value) throws IOException {
    if (value instanceof Long number) {
      out.writeByte(LONG);
      out.writeLong(number);
    } else if (value instanceof Integer number) {
      out.writeByte(INTEGER);
      out.writeInt(number);
    } else if (value instanceof String text && text.length() <= MAX_UTF_CHARS) {
      out.writeByte(STRING);
      out.writeUTF(text);
    } else if (value instanceof KeyTimerTimes times) {
      out.writeByte(TIMER_TIMES);
      times.writeTo(out);
    } else {
      out.writeByte(SERIALIZED);
      serializedObjects().writeObject(value);
    }
  }

  /** The key group's Java serialization stream, begun at its first object without a fast path. */
  private ObjectOutputStream serializedObjects() throws IOException {
    if (serializedObjects == null) {
      serializedObjects = new ObjectOutputStream(serialized);
    }
    return serializedObjects;
  }

  /** A growing array without the locks of {@link java.io.ByteArrayOutputStream}. */
  private static final class Buffer extends OutputStream {
    private byte[] bytes = new byte[4096];
    private int size;

    @Override
    public void write(int b) {
      ensureRoom(1);
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] source, int offset, int length) {
      ensureRoom(length);
      System.arraycopy(source, offset, bytes, size, length);
      size += length;
    }

    byte[] bytes() {
      return bytes;
    }

    int size() {
      return size;
    }

    void reset() {
      size = 0;
    }

    private void ensureRoom(int length) {
      if (size + length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
      }
    }
  }
}
