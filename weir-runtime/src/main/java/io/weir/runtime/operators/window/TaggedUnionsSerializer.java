package io.weir.runtime.operators.window;

import io.weir.api.datastream.TaggedUnion;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import io.weir.api.types.EvolvingSerializer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of one window of a window join: the list of its {@link TaggedUnion}s in arrival order,
 * each a side byte and the bytes of that side's serializer, so that the join's buffered records are
 * written field by field as Flink writes them with its inputs' type serializers, not by Java
 * serialization. The schema is both sides' schemas, so either input's record type may gain or lose
 * fields between a checkpoint and its restore.
 *
 * <p>Lists written before joins had this format (by the tagged default, Java serialization behind
 * its type byte) are still read, so those checkpoints restore; they are written in this format when
 * their windows next get a record.
 */
final class TaggedUnionsSerializer implements EvolvingSerializer<Object> {
  private static final long serialVersionUID = 1L;

  /** The first byte of this format; the tagged default never starts a value with it. */
  private static final byte TAGGED_UNIONS = 17;

  private static final byte FIRST = 0;
  private static final byte SECOND = 1;

  private static final StateSerializer<Object> EARLIER_FORMAT = StateSerializers.tagged();

  private final EvolvingSerializer<Object> first;
  private final EvolvingSerializer<Object> second;

  TaggedUnionsSerializer(EvolvingSerializer<Object> first, EvolvingSerializer<Object> second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public byte[] serialize(Object value) {
    List<?> records = (List<?>) value;
    int count = records.size();
    byte[][] sides = new byte[count][];
    int length = 1 + Integer.BYTES;
    for (int index = 0; index < count; index++) {
      TaggedUnion<?, ?> record = (TaggedUnion<?, ?>) records.get(index);
      sides[index] =
          record.isFirst() ? first.serialize(record.first()) : second.serialize(record.second());
      length += 1 + Integer.BYTES + sides[index].length;
    }
    ByteBuffer out = ByteBuffer.allocate(length).put(TAGGED_UNIONS).putInt(count);
    for (int index = 0; index < count; index++) {
      boolean isFirst = ((TaggedUnion<?, ?>) records.get(index)).isFirst();
      out.put(isFirst ? FIRST : SECOND).putInt(sides[index].length).put(sides[index]);
    }
    return out.array();
  }

  @Override
  public Object deserialize(byte[] bytes) {
    return read(bytes, first, second);
  }

  /** Both sides' schemas, each behind its length. */
  @Override
  public byte[] schema() {
    byte[] firstSchema = first.schema();
    byte[] secondSchema = second.schema();
    return ByteBuffer.allocate(2 * Integer.BYTES + firstSchema.length + secondSchema.length)
        .putInt(firstSchema.length)
        .put(firstSchema)
        .putInt(secondSchema.length)
        .put(secondSchema)
        .array();
  }

  @Override
  public StateSerializer<Object> readerOf(byte[] writtenSchema) {
    ByteBuffer in = ByteBuffer.wrap(writtenSchema);
    StateSerializer<Object> firstReader = first.readerOf(lengthFramed(in));
    StateSerializer<Object> secondReader = second.readerOf(lengthFramed(in));
    if (firstReader == first && secondReader == second) {
      return this;
    }
    return new StateSerializer<>() {
      @Override
      public byte[] serialize(Object value) {
        return TaggedUnionsSerializer.this.serialize(value);
      }

      @Override
      public Object deserialize(byte[] bytes) {
        return read(bytes, firstReader, secondReader);
      }
    };
  }

  private static byte[] lengthFramed(ByteBuffer in) {
    byte[] framed = new byte[in.getInt()];
    in.get(framed);
    return framed;
  }

  /** An {@link ArrayList}, as the window's {@link WindowAccumulator} keeps its records. */
  private static Object read(
      byte[] bytes, StateSerializer<Object> firstReader, StateSerializer<Object> secondReader) {
    if (bytes[0] != TAGGED_UNIONS) {
      return EARLIER_FORMAT.deserialize(bytes);
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
    int count = in.getInt();
    ArrayList<Object> records = new ArrayList<>(count);
    for (int index = 0; index < count; index++) {
      byte side = in.get();
      byte[] record = lengthFramed(in);
      records.add(
          side == FIRST
              ? TaggedUnion.ofFirst(firstReader.deserialize(record))
              : TaggedUnion.ofSecond(secondReader.deserialize(record)));
    }
    return records;
  }

  @Override
  public String toString() {
    return "TaggedUnionsSerializer(" + first + ", " + second + ")";
  }
}
