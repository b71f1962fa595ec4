package io.weir.api.types;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array with variable-length integers; one per serialize call. */
final class BinaryOutput {
  private byte[] buffer;
  private int position;

  BinaryOutput(int capacity) {
    buffer = new byte[capacity];
  }

  void writeByte(int value) {
    ensure(1);
    buffer[position++] = (byte) value;
  }

  void writeBytes(byte[] bytes) {
    writeUnsigned(bytes.length);
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, position, bytes.length);
    position += bytes.length;
  }

  /** Zig-zag, so that small negative numbers stay short too. */
  void writeLong(long value) {
    writeUnsignedLong((value << 1) ^ (value >> 63));
  }

  void writeInt(int value) {
    writeLong(value);
  }

  void writeUnsigned(int value) {
    writeUnsignedLong(value & 0xffffffffL);
  }

  void writeBoolean(boolean value) {
    writeByte(value ? 1 : 0);
  }

  void writeDouble(double value) {
    writeFixedLong(Double.doubleToRawLongBits(value));
  }

  void writeFixedLong(long value) {
    ensure(Long.BYTES);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buffer[position++] = (byte) (value >>> shift);
    }
  }

  /**
   * The string's length in UTF-8 bytes, then the bytes. For the usual ASCII string the JDK checks
   * and copies its bytes in bulk, which a loop over its chars does not match.
   */
  void writeString(String value) {
    writeBytes(value.getBytes(StandardCharsets.UTF_8));
  }

  int size() {
    return position;
  }

  /** The bytes written; the buffer itself when they fill it, so that no copy is made. */
  byte[] toByteArray() {
    return position == buffer.length ? buffer : Arrays.copyOf(buffer, position);
  }

  private void writeUnsignedLong(long value) {
    ensure(10);
    while ((value & ~0x7fL) != 0) {
      buffer[position++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    buffer[position++] = (byte) value;
  }

  private void ensure(int more) {
    if (position + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + more));
    }
  }
}
