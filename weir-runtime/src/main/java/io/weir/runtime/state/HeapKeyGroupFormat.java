package io.weir.runtime.state;

/**
 * The bytes of one key group of a heap snapshot, written by {@link KeyGroupWriter} and read by
 * {@link KeyGroupReader}:
 *
 * <pre>
 * magic "WHKG" (int), version (byte), length of the states section (int),
 * states section: per state: kind (byte), name (UTF), entry count (int),
 *   TYPED:   schema count (int), each schema (int length, bytes), then per entry:
 *            key (object), value (int length, the bytes of the state's serializer)
 *   OBJECTS: per entry: key (object), value (object)
 *   and END (byte) after the last state,
 * then the Java serialization stream of the objects without a fast path (none when empty).
 * </pre>
 *
 * An object is a tag byte and its value: a long, an int, a modified-UTF-8 string, a key's timer
 * times (count, then the longs), or SERIALIZED, whose object is the next one in the key group's
 * Java serialization stream. One stream per key group, not one per object, so a class descriptor is
 * written once per key group. Earlier versions wrote a key group as one Java-serialized map, whose
 * bytes start with Java serialization's magic 0xACED; those still restore.
 */
final class HeapKeyGroupFormat {
  static final int MAGIC = 0x57484B47;
  static final byte VERSION = 1;
  static final int HEADER_BYTES = Integer.BYTES + 1 + Integer.BYTES;

  static final byte END = 0;
  static final byte TYPED = 1;
  static final byte OBJECTS = 2;

  static final byte LONG = 1;
  static final byte INTEGER = 2;
  static final byte STRING = 3;
  static final byte TIMER_TIMES = 4;
  static final byte SERIALIZED = 5;

  /** Longer strings may not fit {@code writeUTF}'s 65,535 bytes; they are Java-serialized. */
  static final int MAX_UTF_CHARS = 65_535 / 3;

  private HeapKeyGroupFormat() {}

  /** Whether {@code bytes} start with this format's magic. */
  static boolean isCompact(byte[] bytes) {
    return bytes.length >= HEADER_BYTES
        && ((bytes[0] & 0xff) << 24
                | (bytes[1] & 0xff) << 16
                | (bytes[2] & 0xff) << 8
                | (bytes[3] & 0xff))
            == MAGIC;
  }

  /** Whether {@code bytes} are a Java serialization stream, the format of earlier versions. */
  static boolean isJavaSerialized(byte[] bytes) {
    return bytes.length >= 2 && (bytes[0] & 0xff) == 0xac && (bytes[1] & 0xff) == 0xed;
  }
}
