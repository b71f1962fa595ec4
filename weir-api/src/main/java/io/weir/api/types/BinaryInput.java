package io.weir.api.types;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads what {@link BinaryOutput} wrote; a truncated input throws. */
final class BinaryInput {
  private final byte[] buffer;
  private int position;

  BinaryInput(byte[] buffer) {
    this.buffer = buffer;
  }

  int readByte() {
    check(1);
    return buffer[position++];
  }

  byte[] readBytes() {
    int length = readUnsigned();
    check(length);
    byte[] bytes = Arrays.copyOfRange(buffer, position, position + length);
    position += length;
    return bytes;
  }

  long readLong() {
    long raw = readUnsignedLong();
    return (raw >>> 1) ^ -(raw & 1);
  }

  int readInt() {
    return (int) readLong();
  }

  int readUnsigned() {
    return (int) readUnsignedLong();
  }

  long readFixedLong() {
    check(Long.BYTES);
    long value = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      value = (value << 8) | (buffer[position++] & 0xff);
    }
    return value;
  }

  String readString() {
    int length = readUnsigned();
    check(length);
    String value = new String(buffer, position, length, StandardCharsets.UTF_8);
    position += length;
    return value;
  }

  boolean atEnd() {
    return position == buffer.length;
  }

  private long readUnsignedLong() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int next = readByte();
      value |= (long) (next & 0x7f) << shift;
      if ((next & 0x80) == 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("A variable-length number is longer than ten bytes");
  }

  private void check(int length) {
    if (length < 0 || position + length > buffer.length) {
      throw new IllegalArgumentException(
          "Serialized value is truncated: needs "
              + length
              + " more bytes at "
              + position
              + " of "
              + buffer.length);
    }
  }
}
