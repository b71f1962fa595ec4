package io.weir.api.types;

import java.util.List;

/**
 * Builds the codec that reads bytes written with an older schema into the current type: the same
 * codec where nothing changed, defaults for fields added, skips for fields removed, and {@link
 * TypeChangedException} for a field whose type changed.
 */
final class SchemaResolution {
  private SchemaResolution() {}

  static Codec reader(Schema written, Codec current, String path) {
    Schema now = current.schema();
    if (written.equals(now)) {
      return current;
    }
    if (written instanceof Schema.Nullable old && current instanceof NullableCodec nullable) {
      return new NullableCodec(reader(old.value(), nullable.value(), path));
    }
    if (written instanceof Schema.Struct old && current instanceof StructCodec struct) {
      return struct(old, struct, path);
    }
    if (written instanceof Schema.Sequence old
        && current instanceof SequenceCodec sequence
        && now instanceof Schema.Sequence same
        && old.kind().equals(same.kind())) {
      return sequence.withElement(reader(old.element(), sequence.element(), path + "[]"));
    }
    if (written instanceof Schema.Dictionary old && current instanceof MapCodec map) {
      return map.withEntries(
          reader(old.key(), map.key(), path + "{key}"),
          reader(old.value(), map.value(), path + "{value}"));
    }
    throw new TypeChangedException(path, written.describe(), now.describe());
  }

  private static Codec struct(Schema.Struct written, StructCodec current, String path) {
    List<StructAccess.Member> members = current.access().members();
    List<Schema.Field> fields = written.fields();
    Codec[] readers = new Codec[fields.size()];
    int[] targets = new int[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Schema.Field field = fields.get(i);
      targets[i] = indexOf(members, field.name());
      readers[i] =
          targets[i] < 0
              ? new SchemaSkipper(field.schema())
              : reader(
                  field.schema(),
                  current.field(targets[i]),
                  path.isEmpty() ? field.name() : path + "." + field.name());
    }
    return new ResolvedStructCodec(current.access(), readers, targets, written);
  }

  private static int indexOf(List<StructAccess.Member> members, String name) {
    for (int i = 0; i < members.size(); i++) {
      if (members.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
