package io.weir.runtime.state;

import static io.weir.runtime.state.HeapKeyGroupFormat.HEADER_BYTES;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one key group of a heap snapshot written in the {@link HeapKeyGroupFormat}: each state's
 * entries as the earlier format held them, a {@link TypedKeyGroup} for a typed state and a map of
 * objects for the others, so one restore serves both formats.
 */
final class KeyGroupReader {
  private final byte[] bytes;
  private final int serializedStart;
  private final DataInputStream in;
  private ObjectInputStream serializedObjects;

  private KeyGroupReader(byte[] bytes, int statesLength) {
    this.bytes = bytes;
    this.serializedStart = HEADER_BYTES + statesLength;
    this.in = new DataInputStream(new ByteArrayInputStream(bytes, HEADER_BYTES, statesLength));
  }

  /**
   * Each state of the key group by name: a {@link TypedKeyGroup} or a {@code HashMap} of objects.
   *
   * @param keyGroup named by errors
   */
  static Map<String, Object> read(int keyGroup, byte[] bytes) {
    ByteBuffer header = ByteBuffer.wrap(bytes);
    header.getInt();
    byte version = header.get();
    if (version != HeapKeyGroupFormat.VERSION) {
      throw new IllegalStateException(
          "The restored keyed state of key group "
              + keyGroup
              + " has heap format version "
              + version
              + ", which this version of Weir cannot read; restore it with the version that wrote"
              + " it");
    }
    try {
      return new KeyGroupReader(bytes, header.getInt()).states();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException(
          "The restored keyed state of key group " + keyGroup + " cannot be read: " + e, e);
    }
  }

  private Map<String, Object> states() throws IOException, ClassNotFoundException {
    Map<String, Object> states = new LinkedHashMap<>();
    for (byte kind = in.readByte(); kind != HeapKeyGroupFormat.END; kind = in.readByte()) {
      String name = in.readUTF();
      int entries = in.readInt();
      states.put(
          name,
          switch (kind) {
            case HeapKeyGroupFormat.TYPED -> typedState(entries);
            case HeapKeyGroupFormat.OBJECTS -> objectState(entries);
            default -> throw new IOException("unknown kind " + kind + " of state '" + name + "'");
          });
    }
    return states;
  }

  private TypedKeyGroup typedState(int entries) throws IOException, ClassNotFoundException {
    int schemaCount = in.readInt();
    List<byte[]> schemas = new ArrayList<>(schemaCount);
    for (int index = 0; index < schemaCount; index++) {
      schemas.add(readFrame());
    }
    HashMap<Object, byte[]> values = new HashMap<>(capacityFor(entries));
    for (int index = 0; index < entries; index++) {
      values.put(readObject(), readFrame());
    }
    return new TypedKeyGroup(List.copyOf(schemas), values);
  }

  private HashMap<Object, Object> objectState(int entries)
      throws IOException, ClassNotFoundException {
    HashMap<Object, Object> values = new HashMap<>(capacityFor(entries));
    for (int index = 0; index < entries; index++) {
      values.put(readObject(), readObject());
    }
    return values;
  }

  /** A map of {@code entries} entries does not grow. */
  private static int capacityFor(int entries) {
    return (int) (entries / 0.75f) + 1;
  }

  private byte[] readFrame() throws IOException {
    byte[] frame = new byte[in.readInt()];
    in.readFully(frame);
    return frame;
  }

  private Object readObject() throws IOException, ClassNotFoundException {
    byte tag = in.readByte();
    return switch (tag) {
      case HeapKeyGroupFormat.LONG -> in.readLong();
      case HeapKeyGroupFormat.INTEGER -> in.readInt();
      case HeapKeyGroupFormat.STRING -> in.readUTF();
      case HeapKeyGroupFormat.TIMER_TIMES -> KeyTimerTimes.read(in);
      case HeapKeyGroupFormat.SERIALIZED -> serializedObjects().readObject();
      default -> throw new IOException("unknown tag " + tag + " of an object");
    };
  }

  private ObjectInputStream serializedObjects() throws IOException {
    if (serializedObjects == null) {
      serializedObjects =
          new ContextObjectInputStream(
              new ByteArrayInputStream(bytes, serializedStart, bytes.length - serializedStart));
    }
    return serializedObjects;
  }
}
