package io.weir.cluster.exchange;

import io.weir.cluster.rpc.ClassAllowlist;
import io.weir.cluster.rpc.MessageCodec;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Encodes a batch as bytes: its channel, size, and per element the timestamp, a tag and the
 * element's fields. Records of the common types (strings as UTF-8, boxed primitives, byte arrays)
 * are written as plain binary; any other record by Java serialization, so it must be serializable —
 * class descriptions are written once per batch. Events are rebuilt as the runtime's own event
 * objects, so the receiving task sees what a local one would.
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

  private BatchCodec() {}

  static byte[] encode(Batch batch) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + batch.size() * 32);
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeInt(batch.channel());
      out.writeInt(batch.size());
      for (int i = 0; i < batch.size(); i++) {
        out.writeLong(batch.timestamp(i));
        writeElement(out, batch.value(i));
      }
    }
    return bytes.toByteArray();
  }

  private static void writeElement(ObjectOutputStream out, Object value) throws IOException {
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
    } else {
      writeRecord(out, value);
    }
  }

  private static void writeRecord(ObjectOutputStream out, Object value) throws IOException {
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
      out.writeByte(RECORD);
      out.writeObject(value);
    }
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

  static Batch decode(byte[] payload, ClassLoader loader)
      throws IOException, ClassNotFoundException {
    try (ObjectInputStream in =
        new MessageCodec.LoaderObjectInputStream(
            new ByteArrayInputStream(payload), loader, ClassAllowlist.records(loader))) {
      int channel = in.readInt();
      int size = in.readInt();
      Object[] values = new Object[size];
      long[] timestamps = new long[size];
      for (int i = 0; i < size; i++) {
        timestamps[i] = in.readLong();
        values[i] = readElement(in);
      }
      return Batch.of(channel, values, timestamps);
    }
  }

  private static Object readElement(ObjectInputStream in)
      throws IOException, ClassNotFoundException {
    byte tag = in.readByte();
    return switch (tag) {
      case RECORD -> in.readObject();
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
