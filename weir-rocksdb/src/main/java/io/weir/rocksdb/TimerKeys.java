package io.weir.rocksdb;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * How timers are laid out in RocksDB: the key group (two bytes, as every state key, so a key-group
 * range is one contiguous run), then the time (eight bytes, big-endian with the sign bit flipped,
 * so that byte order is time order, negative times first), then the serialized record key. The
 * value is empty. Within a key group, RocksDB's order is thus (time, key): the next timer to fire
 * is the first entry.
 */
final class TimerKeys {
  static final int TIME_OFFSET = StateKeys.KEY_GROUP_BYTES;
  static final int KEY_OFFSET = TIME_OFFSET + Long.BYTES;

  private TimerKeys() {}

  static byte[] timerKey(int keyGroup, long time, byte[] recordKey) {
    return ByteBuffer.allocate(KEY_OFFSET + recordKey.length)
        .putShort((short) keyGroup)
        .putLong(time ^ Long.MIN_VALUE)
        .put(recordKey)
        .array();
  }

  static long timeOf(byte[] timerKey) {
    return ByteBuffer.wrap(timerKey, TIME_OFFSET, Long.BYTES).getLong() ^ Long.MIN_VALUE;
  }

  static byte[] recordKeyOf(byte[] timerKey) {
    return Arrays.copyOfRange(timerKey, KEY_OFFSET, timerKey.length);
  }
}
