package io.weir.api.types;

import io.weir.api.state.StateSerializer;

/** Java serialization, for the types a job named as its explicit fallback. */
final class JavaCodec implements Codec {
  static final Schema SCHEMA = new Schema.Leaf("java");
  private static final StateSerializer<Object> JAVA = StateSerializer.java();

  @Override
  public void write(BinaryOutput out, Object value) {
    out.writeBytes(JAVA.serialize(value));
  }

  @Override
  public Object read(BinaryInput in) {
    return JAVA.deserialize(in.readBytes());
  }

  @Override
  public Schema schema() {
    return SCHEMA;
  }
}
