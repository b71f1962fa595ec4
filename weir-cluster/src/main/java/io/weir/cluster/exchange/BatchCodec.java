package io.weir.cluster.exchange;

import io.weir.cluster.rpc.MessageCodec;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * Encodes a batch as bytes: its channel, size, and per element a tag, the timestamp and either the
 * record (Java serialization, so records must be serializable) or the event's fields. Events are
 * rebuilt as the runtime's own event objects, so the receiving task sees what a local one would.
 */
final class BatchCodec {
  private static final byte RECORD = 0;
  private static final byte WATERMARK = 1;
  private static final byte IDLE = 2;
  private static final byte ACTIVE = 3;
  private static final byte BARRIER = 4;
  private static final byte END_OF_DATA = 5;

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
      out.writeByte(RECORD);
      out.writeObject(value);
    }
  }

  static Batch decode(byte[] payload, ClassLoader loader)
      throws IOException, ClassNotFoundException {
    try (ObjectInputStream in =
        new MessageCodec.LoaderObjectInputStream(new ByteArrayInputStream(payload), loader)) {
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
      case WATERMARK -> new StreamEvent.Watermark(in.readLong());
      case IDLE -> StreamEvent.IDLE;
      case ACTIVE -> StreamEvent.ACTIVE;
      case BARRIER -> new StreamEvent.CheckpointBarrier(in.readLong(), in.readLong());
      case END_OF_DATA -> StreamEvent.END_OF_DATA;
      default -> throw new IOException("Unknown element tag " + tag + " in a batch");
    };
  }
}
