package io.weir.runtime.operators.window;

import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.types.TypeSerializer;
import io.weir.api.windowing.TimeWindow;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The bytes of one key's open time windows ({@code window -> accumulated}), for a backend that
 * keeps them serialized (RocksDB reads and writes them for every record) and for the heap's
 * snapshots when the accumulated values have a {@link TypeSerializer}. Each window is its start and
 * end, each accumulated value goes through the serializer of its type ({@link AccumulatedTypes}): a
 * {@link TypeSerializer} for an aggregate's record or POJO accumulator, the inputs' for a window
 * join's records, so no class names and no Java serialization per record; the tagged default
 * otherwise.
 *
 * <p>Values written before windows had a format of their own (the whole map by Java serialization,
 * behind the tagged default's type byte) are still read, so those checkpoints restore; they are
 * written anew in this format as their keys get records. With a typed accumulator the serializer is
 * an {@link EvolvingSerializer} whose schema is the accumulator's: an accumulator that gained or
 * lost fields restores, one whose field changed its type is refused, as for user states.
 */
public class WindowContentsSerializer implements StateSerializer<Object> {
  private static final long serialVersionUID = 1L;

  /** The first byte of this format; the tagged default never starts a map with it. */
  private static final byte WINDOWS = 16;

  private static final StateSerializer<Object> EARLIER_FORMAT = StateSerializers.tagged();

  private final StateSerializer<Object> accumulated;

  private WindowContentsSerializer(StateSerializer<Object> accumulated) {
    this.accumulated = accumulated;
  }

  /** The serializer of the window contents of a window with these functions. */
  public static WindowContentsSerializer of(AccumulatedTypes.Serializers accumulated) {
    return accumulated.typed() != null
        ? new Evolving(accumulated.typed())
        : new WindowContentsSerializer(accumulated.untyped());
  }

  @Override
  public byte[] serialize(Object value) {
    OpenWindows windows = OpenWindows.of((Map<?, ?>) value);
    int count = windows.size();
    byte[][] values = new byte[count][];
    int length = 1 + Integer.BYTES;
    for (int index = 0; index < count; index++) {
      values[index] = accumulated.serialize(windows.valueAt(index));
      length += 2 * Long.BYTES + Integer.BYTES + values[index].length;
    }
    ByteBuffer out = ByteBuffer.allocate(length).put(WINDOWS).putInt(count);
    for (int index = 0; index < count; index++) {
      out.putLong(windows.startAt(index)).putLong(windows.endAt(index));
      out.putInt(values[index].length).put(values[index]);
    }
    return out.array();
  }

  @Override
  public Object deserialize(byte[] bytes) {
    return read(bytes, accumulated);
  }

  private static OpenWindows read(byte[] bytes, StateSerializer<Object> accumulated) {
    if (bytes[0] != WINDOWS) {
      return OpenWindows.of((Map<?, ?>) EARLIER_FORMAT.deserialize(bytes));
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
    int count = in.getInt();
    OpenWindows windows = new OpenWindows(count);
    for (int i = 0; i < count; i++) {
      TimeWindow window = new TimeWindow(in.getLong(), in.getLong());
      byte[] value = new byte[in.getInt()];
      in.get(value);
      windows.put(window, accumulated.deserialize(value));
    }
    return windows;
  }

  /** Window contents whose accumulated values have a {@link TypeSerializer}, and so a schema. */
  static final class Evolving extends WindowContentsSerializer
      implements EvolvingSerializer<Object> {
    private static final long serialVersionUID = 1L;

    private final EvolvingSerializer<Object> typed;

    Evolving(EvolvingSerializer<Object> typed) {
      super(typed);
      this.typed = typed;
    }

    @Override
    public byte[] schema() {
      return typed.schema();
    }

    @Override
    public StateSerializer<Object> readerOf(byte[] writtenSchema) {
      StateSerializer<Object> reader = typed.readerOf(writtenSchema);
      return new StateSerializer<>() {
        @Override
        public byte[] serialize(Object value) {
          return Evolving.this.serialize(value);
        }

        @Override
        public Object deserialize(byte[] bytes) {
          return read(bytes, reader);
        }
      };
    }
  }
}
