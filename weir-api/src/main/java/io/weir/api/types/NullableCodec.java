package io.weir.api.types;

/** A reference that may be null: one presence byte before the value. */
final class NullableCodec implements Codec {
  private final Codec value;
  private final Schema schema;

  NullableCodec(Codec value) {
    this.value = value;
    schema = new Schema.Nullable(value.schema());
  }

  Codec value() {
    return value;
  }

  @Override
  public void write(BinaryOutput out, Object object) {
    if (object == null) {
      out.writeByte(0);
    } else {
      out.writeByte(1);
      value.write(out, object);
    }
  }

  @Override
  public Object read(BinaryInput in) {
    return in.readByte() == 0 ? null : value.read(in);
  }

  @Override
  public Schema schema() {
    return schema;
  }
}
