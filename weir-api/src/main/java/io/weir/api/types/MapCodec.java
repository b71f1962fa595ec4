package io.weir.api.types;

import java.util.Map;
import java.util.function.IntFunction;

/** A map: the entry count, then key and value of each entry. */
final class MapCodec implements Codec {
  private final Codec key;
  private final Codec value;
  private final IntFunction<Map<Object, Object>> factory;
  private final Schema schema;

  MapCodec(Codec key, Codec value, IntFunction<Map<Object, Object>> factory) {
    this.key = key;
    this.value = value;
    this.factory = factory;
    schema = new Schema.Dictionary(key.schema(), value.schema());
  }

  MapCodec withEntries(Codec keyReader, Codec valueReader) {
    return new MapCodec(keyReader, valueReader, factory);
  }

  Codec key() {
    return key;
  }

  Codec value() {
    return value;
  }

  @Override
  public void write(BinaryOutput out, Object object) {
    Map<?, ?> map = (Map<?, ?>) object;
    out.writeUnsigned(map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      key.write(out, entry.getKey());
      value.write(out, entry.getValue());
    }
  }

  @Override
  public Object read(BinaryInput in) {
    int size = in.readUnsigned();
    Map<Object, Object> map = factory.apply(size);
    for (int i = 0; i < size; i++) {
      map.put(key.read(in), value.read(in));
    }
    return map;
  }

  @Override
  public Schema schema() {
    return schema;
  }
}
