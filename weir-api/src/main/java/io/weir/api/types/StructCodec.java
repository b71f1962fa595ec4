package io.weir.api.types;

import java.util.ArrayList;
import java.util.List;

/** A record or POJO: each field's value in field order, no names (they are in the schema). */
final class StructCodec implements Codec {
  private final StructAccess access;
  private final Codec[] fields;
  private final MemberWriter[] writers;
  private Schema schema;

  StructCodec(StructAccess access) {
    this.access = access;
    fields = new Codec[access.members().size()];
    writers = new MemberWriter[fields.length];
  }

  /** Set once while the factory builds the field codecs, before the codec is used. */
  void setField(int index, Codec codec) {
    fields[index] = codec;
    writers[index] = access.writer(index, codec);
  }

  StructAccess access() {
    return access;
  }

  Codec field(int index) {
    return fields[index];
  }

  @Override
  public void write(BinaryOutput out, Object value) {
    for (MemberWriter writer : writers) {
      writer.write(out, value);
    }
  }

  @Override
  public Object read(BinaryInput in) {
    Object[] values = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      values[i] = fields[i].read(in);
    }
    return access.create(values);
  }

  @Override
  public Schema schema() {
    if (schema == null) {
      List<Schema.Field> described = new ArrayList<>(fields.length);
      for (int i = 0; i < fields.length; i++) {
        described.add(new Schema.Field(access.members().get(i).name(), fields[i].schema()));
      }
      schema = new Schema.Struct(List.copyOf(described));
    }
    return schema;
  }
}
