package io.weir.api.types;

/** An enum constant by name, so that reordering or adding constants keeps old bytes readable. */
final class EnumCodec implements Codec {
  static final Schema SCHEMA = new Schema.Leaf("enum");
  private final Class<? extends Enum<?>> type;

  EnumCodec(Class<? extends Enum<?>> type) {
    this.type = type;
  }

  @Override
  public void write(BinaryOutput out, Object value) {
    out.writeString(((Enum<?>) value).name());
  }

  @Override
  public Object read(BinaryInput in) {
    String name = in.readString();
    for (Enum<?> constant : type.getEnumConstants()) {
      if (constant.name().equals(name)) {
        return constant;
      }
    }
    throw new IllegalStateException(
        "Enum " + type.getName() + " has no constant " + name + " any more");
  }

  @Override
  public Schema schema() {
    return SCHEMA;
  }
}
