package io.weir.rocksdb;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.state.StateSerializer;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.types.TypeChangedException;
import io.weir.api.types.TypeSerializer;
import io.weir.runtime.state.KeyGroupRange;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The schemas of the states a backend's operator declared with {@link TypeSerializer}s, in a column
 * family of their own: one entry per state and key group, so the key-group cut of a rescale carries
 * them with the state. A state declared with a type whose schema differs from the one its entries
 * were written with is rewritten through the written schema once, when it is declared: fields added
 * get their default, removed ones are dropped, and a field whose type changed fails the restore for
 * good in one line naming the state, the operator and the field. Task thread only.
 */
final class RocksDbTypeSchemas {
  static final String FAMILY = "weir:type-schemas";

  /** How a state's value is made of serialized parts. */
  enum Shape {
    /** One value (value and reducing state). */
    VALUE,
    /** Length-framed elements (list state). */
    LIST,
    /** One entry per map key, the serialized map key after the record key's prefix. */
    MAP
  }

  private final ColumnFamily schemas;
  private final KeyGroupRange range;
  private final String operatorUid;
  private final Set<String> declared = new HashSet<>();

  RocksDbTypeSchemas(ColumnFamily schemas, KeyGroupRange range, String operatorUid) {
    this.schemas = schemas;
    this.range = range;
    this.operatorUid = operatorUid;
  }

  /** What becomes of a state's entries written before it had a schema, when it gets one. */
  enum EntriesWithoutSchema {
    /** The restore fails: a user's serializer cannot read another serializer's bytes. */
    REFUSED,
    /** Kept: the declared serializer reads them too (an operator's own table). */
    READ_BY_THE_SERIALIZER
  }

  /**
   * Called when the operator declares state {@code name}, before it is read: checks the written
   * schema against the declared serializers and rewrites the state's entries if they differ.
   */
  void declare(String name, ColumnFamily state, Shape shape, StateSerializer<?>... serializers) {
    declare(name, state, shape, EntriesWithoutSchema.REFUSED, serializers);
  }

  /** As {@link #declare(String, ColumnFamily, Shape, StateSerializer[])}, for entries as given. */
  void declare(
      String name,
      ColumnFamily state,
      Shape shape,
      EntriesWithoutSchema withoutSchema,
      StateSerializer<?>... serializers) {
    if (!declared.add(name)) {
      return;
    }
    byte[] written = schemas.get(entryKey(range.start(), name));
    List<EvolvingSerializer<Object>> typed = typed(serializers);
    if (typed == null) {
      if (written != null) {
        throw refused(name, "was written with a TypeSerializer; declare it with one to restore it");
      }
      return;
    }
    byte[] current = encode(typed.stream().map(EvolvingSerializer::schema).toList());
    if (written == null
        && withoutSchema == EntriesWithoutSchema.REFUSED
        && !state.keysWithPrefix(new byte[0], new byte[0], 1).isEmpty()) {
      throw refused(name, "was written without a TypeSerializer; keep its serializer or rename it");
    }
    if (written != null && !Arrays.equals(written, current)) {
      rewrite(name, state, shape, typed, decode(written));
    }
    if (written == null || !Arrays.equals(written, current)) {
      for (int keyGroup = range.start(); keyGroup <= range.end(); keyGroup++) {
        schemas.put(entryKey(keyGroup, name), current);
      }
    }
  }

  private void rewrite(
      String name,
      ColumnFamily state,
      Shape shape,
      List<EvolvingSerializer<Object>> typed,
      List<byte[]> writtenSchemas) {
    List<StateSerializer<Object>> readers = new ArrayList<>();
    try {
      for (int i = 0; i < typed.size(); i++) {
        readers.add(typed.get(i).readerOf(writtenSchemas.get(i)));
      }
    } catch (TypeChangedException e) {
      throw refused(name, e.getMessage(), "Cannot restore state '%s' of operator '%s': %s");
    }
    // A RocksDB iterator reads the state as it was when it was opened, so rewriting is safe.
    state.forEach(
        (key, value) -> {
          switch (shape) {
            case VALUE -> state.put(key, typed.get(0).serialize(readers.get(0).deserialize(value)));
            case LIST -> state.put(key, rewriteFrames(value, readers.get(0), typed.get(0)));
            case MAP -> rewriteEntry(state, key, value, readers, typed);
          }
        });
  }

  private static void rewriteEntry(
      ColumnFamily state,
      byte[] key,
      byte[] value,
      List<StateSerializer<Object>> readers,
      List<EvolvingSerializer<Object>> typed) {
    int prefixLength =
        StateKeys.KEY_GROUP_BYTES + Integer.BYTES + StateKeys.recordKeyOf(key).length;
    byte[] mapKey = Arrays.copyOfRange(key, prefixLength, key.length);
    byte[] newMapKey = typed.get(0).serialize(readers.get(0).deserialize(mapKey));
    byte[] newKey = StateKeys.withMapKey(Arrays.copyOf(key, prefixLength), newMapKey);
    if (!Arrays.equals(newKey, key)) {
      state.delete(key);
    }
    state.put(newKey, typed.get(1).serialize(readers.get(1).deserialize(value)));
  }

  private static byte[] rewriteFrames(
      byte[] frames, StateSerializer<Object> reader, EvolvingSerializer<Object> writer) {
    ByteBuffer in = ByteBuffer.wrap(frames);
    List<byte[]> elements = new ArrayList<>();
    int length = 0;
    while (in.hasRemaining()) {
      byte[] element = new byte[in.getInt()];
      in.get(element);
      byte[] rewritten = writer.serialize(reader.deserialize(element));
      elements.add(rewritten);
      length += Integer.BYTES + rewritten.length;
    }
    ByteBuffer out = ByteBuffer.allocate(length);
    elements.forEach(element -> out.putInt(element.length).put(element));
    return out.array();
  }

  @SuppressWarnings("unchecked")
  private static List<EvolvingSerializer<Object>> typed(StateSerializer<?>... serializers) {
    List<EvolvingSerializer<Object>> typed = new ArrayList<>();
    for (StateSerializer<?> serializer : serializers) {
      if (!(serializer instanceof EvolvingSerializer<?>)) {
        return null;
      }
      typed.add((EvolvingSerializer<Object>) serializer);
    }
    return typed;
  }

  private SuppressRestartsException refused(String name, String reason) {
    return refused(name, reason, "State '%s' of operator '%s' %s");
  }

  private SuppressRestartsException refused(String name, String reason, String format) {
    return new SuppressRestartsException(String.format(format, name, operatorUid, reason), null);
  }

  private static byte[] entryKey(int keyGroup, String name) {
    byte[] stateName = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(StateKeys.KEY_GROUP_BYTES + stateName.length)
        .putShort((short) keyGroup)
        .put(stateName)
        .array();
  }

  private static byte[] encode(List<byte[]> parts) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(parts.size());
      for (byte[] part : parts) {
        out.writeInt(part.length);
        out.write(part);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static List<byte[]> decode(byte[] encoded) {
    ByteBuffer in = ByteBuffer.wrap(encoded);
    int count = in.getInt();
    List<byte[]> parts = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] part = new byte[in.getInt()];
      in.get(part);
      parts.add(part);
    }
    return parts;
  }
}
