package io.weir.api.types;

/** Reads past a value of a written schema without building it: a field the type no longer has. */
final class SchemaSkipper implements Codec {
  private final Schema schema;

  SchemaSkipper(Schema schema) {
    this.schema = schema;
  }

  @Override
  public void write(BinaryOutput out, Object value) {
    throw new UnsupportedOperationException("A skipper only reads");
  }

  @Override
  public Object read(BinaryInput in) {
    skip(schema, in);
    return null;
  }

  private static void skip(Schema schema, BinaryInput in) {
    if (schema instanceof Schema.Leaf leaf) {
      LeafCodec codec = LeafCodec.ofKind(leaf.kind());
      if (codec != null) {
        codec.read(in);
      } else if (leaf.equals(EnumCodec.SCHEMA)) {
        in.readString();
      } else {
        in.readBytes();
      }
    } else if (schema instanceof Schema.Nullable nullable) {
      if (in.readByte() != 0) {
        skip(nullable.value(), in);
      }
    } else if (schema instanceof Schema.Sequence sequence) {
      int size = in.readUnsigned();
      for (int i = 0; i < size; i++) {
        skip(sequence.element(), in);
      }
    } else if (schema instanceof Schema.Dictionary dictionary) {
      int size = in.readUnsigned();
      for (int i = 0; i < size; i++) {
        skip(dictionary.key(), in);
        skip(dictionary.value(), in);
      }
    } else if (schema instanceof Schema.Struct struct) {
      for (Schema.Field field : struct.fields()) {
        skip(field.schema(), in);
      }
    }
  }

  @Override
  public Schema schema() {
    return schema;
  }
}
