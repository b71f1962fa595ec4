package io.weir.rocksdb;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * How keyed state is laid out in RocksDB: every key starts with its key group (two bytes,
 * big-endian, so a key-group range is one contiguous run of keys), then the length of the
 * serialized record key and the key itself, then, for a map state, the serialized map key.
 */
final class StateKeys {
  static final int KEY_GROUP_BYTES = 2;

  private StateKeys() {}

  /** The prefix of the current key's entries: key group, key length, key. */
  static byte[] prefix(int keyGroup, byte[] key) {
    return ByteBuffer.allocate(KEY_GROUP_BYTES + Integer.BYTES + key.length)
        .putShort((short) keyGroup)
        .putInt(key.length)
        .put(key)
        .array();
  }

  /** A map state's entry key: the prefix, then the map key. */
  static byte[] withMapKey(byte[] prefix, byte[] mapKey) {
    byte[] bytes = Arrays.copyOf(prefix, prefix.length + mapKey.length);
    System.arraycopy(mapKey, 0, bytes, prefix.length, mapKey.length);
    return bytes;
  }

  /** The first possible key of key group {@code keyGroup}. */
  static byte[] firstOf(int keyGroup) {
    return ByteBuffer.allocate(KEY_GROUP_BYTES).putShort((short) keyGroup).array();
  }

  static int keyGroupOf(byte[] stateKey) {
    return ((stateKey[0] & 0xff) << 8) | (stateKey[1] & 0xff);
  }

  /** The serialized record key inside an entry key. */
  static byte[] recordKeyOf(byte[] stateKey) {
    int length = ByteBuffer.wrap(stateKey, KEY_GROUP_BYTES, Integer.BYTES).getInt();
    int start = KEY_GROUP_BYTES + Integer.BYTES;
    return Arrays.copyOfRange(stateKey, start, start + length);
  }

  static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
