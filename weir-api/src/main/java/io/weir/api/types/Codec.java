package io.weir.api.types;

/**
 * Writes and reads values of one type, chosen once per type when a serializer is built. Codecs keep
 * no state between calls, so one codec serves every thread.
 */
interface Codec {
  void write(BinaryOutput out, Object value);

  Object read(BinaryInput in);

  Schema schema();
}
