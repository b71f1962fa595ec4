package io.weir.cluster.exchange;

import io.weir.api.state.StateSerializer;
import io.weir.api.types.TypeSerializer;
import io.weir.cluster.rpc.ClassAllowlist;
import io.weir.cluster.rpc.MessageCodec;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.StreamEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Encodes a batch as bytes: its channel, size, and per element the timestamp, a tag and the
 * element's fields. Records go through the serializer their stream declared ({@code
 * DataStream.withSerializer}, {@code returns}), which the receiver knows by the batch's channel;
 * without one, records of the common types (strings as UTF-8, boxed primitives, byte arrays) are
 * written as plain binary, records and POJOs by the default serializer of their class ({@link
 * DerivedSerializers}; the class name once per batch), and any other record by Java serialization,
 * so it must be serializable — class descriptions are written once per batch. Events are rebuilt as
 * the runtime's own event objects, so the receiving task sees what a local one would.
 */
final class BatchCodec {
  private static final byte RECORD = 0;
  private static final byte WATERMARK = 1;
  private static final byte IDLE = 2;
  private static final byte ACTIVE = 3;
  private static final byte BARRIER = 4;
  private static final byte END_OF_DATA = 5;
  private static final byte STRING = 6;
  private static final byte LONG = 7;
  private static final byte INTEGER = 8;
  private static final byte DOUBLE = 9;
  private static final byte BOOLEAN = 10;
  private static final byte BYTES = 11;
  private static final byte DECLARED = 12;
  private static final byte DERIVED = 13;

  private BatchCodec() {}

  /**
   * @param encoding the records' declared serializer, or none for the codec's own encoding, and the
   *     classes that may be written by Java serialization
   * @throws IOException naming the class and the operator when a record has no serializer and the
   *     job did not allow Java serialization for it
   */
  static byte[] encode(Batch batch, RecordEncoding encoding) throws IOException {
    StateSerializer<?> serializer = encoding.serializer();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + batch.size() * 32);
    Map<Class<?>, Integer> derivedClasses = new HashMap<>();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeInt(batch.channel());
      out.writeInt(batch.size());
      for (int i = 0; i < batch.size(); i++) {
        out.writeLong(batch.timestamp(i));
        writeElement(out, batch.value(i), serializer, encoding, derivedClasses);
      }
    }
    return bytes.toByteArray();
  }

  private static void writeElement(
      ObjectOutputStream out,
      Object value,
      StateSerializer<?> serializer,
      RecordEncoding encoding,
      Map<Class<?>, Integer> derivedClasses)
      throws IOException {
    if (value instanceof StreamEvent.Watermark watermark) {
      out.writeByte(WATERMARK);
      out.writeLong(watermark.timestamp());
    } else if (value instanceof StreamEvent.WatermarkStatus status) {
      out.writeByte(status.idle() ? IDLE : ACTIVE);
    } else if (value instanceof StreamEvent.CheckpointBarrier barrier) {
      out.writeByte(BARRIER);
      out.writeLong(barrier.checkpointId());
      out.writeLong(barrier.timestamp());
    } else if (value instanceof StreamEvent.EndOfData) {
      out.writeByte(END_OF_DATA);
    } else if (serializer != null) {
      out.writeByte(DECLARED);
      writeBytes(out, serialize(serializer, value));
    } else {
      writeRecord(out, value, encoding, derivedClasses);
    }
  }

  @SuppressWarnings("unchecked")
  private static byte[] serialize(StateSerializer<?> serializer, Object record) {
    return ((StateSerializer<Object>) serializer).serialize(record);
  }

  private static void writeRecord(
      ObjectOutputStream out,
      Object value,
      RecordEncoding encoding,
      Map<Class<?>, Integer> derivedClasses)
      throws IOException {
    if (value instanceof String string) {
      out.writeByte(STRING);
      writeBytes(out, string.getBytes(StandardCharsets.UTF_8));
    } else if (value instanceof Long number) {
      out.writeByte(LONG);
      out.writeLong(number);
    } else if (value instanceof Integer number) {
      out.writeByte(INTEGER);
      out.writeInt(number);
    } else if (value instanceof Double number) {
      out.writeByte(DOUBLE);
      out.writeDouble(number);
    } else if (value instanceof Boolean flag) {
      out.writeByte(BOOLEAN);
      out.writeBoolean(flag);
    } else if (value instanceof byte[] bytes) {
      out.writeByte(BYTES);
      writeBytes(out, bytes);
    } else {
      Optional<TypeSerializer<Object>> derived = DerivedSerializers.of(value.getClass());
      if (derived.isPresent()) {
        writeDerived(out, value, derived.get(), derivedClasses);
      } else if (encoding.allowsJava(value.getClass())) {
        out.writeByte(RECORD);
        out.writeObject(value);
      } else {
        throw new IOException(
            "records of "
                + value.getClass().getName()
                + " from operator '"
                + encoding.operator()
                + "' have no serializer: make the class a record or a POJO, declare one with"
                + " withSerializer, or allow Java serialization for it");
      }
    }
  }

  /** The class's index in this batch, its name the first time, then the record's bytes. */
  private static void writeDerived(
      ObjectOutputStream out,
      Object value,
      TypeSerializer<Object> serializer,
      Map<Class<?>, Integer> derivedClasses)
      throws IOException {
    out.writeByte(DERIVED);
    Integer index = derivedClasses.get(value.getClass());
    if (index == null) {
      out.writeInt(derivedClasses.size());
      out.writeUTF(value.getClass().getName());
      derivedClasses.put(value.getClass(), derivedClasses.size());
    } else {
      out.writeInt(index);
    }
    writeBytes(out, serializer.serialize(value));
  }

  private static void writeBytes(ObjectOutputStream out, byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(ObjectInputStream in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return bytes;
  }

  /**
   * @param serializers by channel, the serializer its records were declared with (null for the
   *     codec's own encoding)
   */
  static Batch decode(
      byte[] payload, ClassLoader loader, IntFunction<StateSerializer<?>> serializers)
      throws IOException, ClassNotFoundException {
    try (ObjectInputStream in =
        new MessageCodec.LoaderObjectInputStream(
            new ByteArrayInputStream(payload), loader, ClassAllowlist.records(loader))) {
      int channel = in.readInt();
      int size = in.readInt();
      StateSerializer<?> serializer = serializers.apply(channel);
      DerivedClasses derivedClasses = new DerivedClasses(loader);
      Object[] values = new Object[size];
      long[] timestamps = new long[size];
      for (int i = 0; i < size; i++) {
        timestamps[i] = in.readLong();
        values[i] = readElement(in, serializer, derivedClasses);
      }
      return Batch.of(channel, values, timestamps);
    }
  }

  private static Object readElement(
      ObjectInputStream in, StateSerializer<?> serializer, DerivedClasses derivedClasses)
      throws IOException, ClassNotFoundException {
    byte tag = in.readByte();
    return switch (tag) {
      case RECORD -> in.readObject();
      case DERIVED -> {
        TypeSerializer<Object> derived = derivedClasses.serializer(in);
        yield derived.deserialize(readBytes(in));
      }
      case DECLARED -> {
        if (serializer == null) {
          throw new IOException(
              "A record encoded by a declared serializer on a channel without one");
        }
        yield serializer.deserialize(readBytes(in));
      }
      case STRING -> new String(readBytes(in), StandardCharsets.UTF_8);
      case LONG -> in.readLong();
      case INTEGER -> in.readInt();
      case DOUBLE -> in.readDouble();
      case BOOLEAN -> in.readBoolean();
      case BYTES -> readBytes(in);
      case WATERMARK -> new StreamEvent.Watermark(in.readLong());
      case IDLE -> StreamEvent.IDLE;
      case ACTIVE -> StreamEvent.ACTIVE;
      case BARRIER -> new StreamEvent.CheckpointBarrier(in.readLong(), in.readLong());
      case END_OF_DATA -> StreamEvent.END_OF_DATA;
      default -> throw new IOException("Unknown element tag " + tag + " in a batch");
    };
  }
}
