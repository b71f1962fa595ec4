package io.weir.api.types;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of a serialized value without class names: what a checkpoint stores once per state so
 * that a later version of the type can read it. Two schemas are the same type when they are equal.
 */
sealed interface Schema {
  /**
   * A value of a fixed kind: {@code long}, {@code String}, {@code enum}, {@code java} and so on.
   */
  record Leaf(String kind) implements Schema {
    @Override
    public String describe() {
      return kind;
    }
  }

  /** A value that may be null: one presence byte, then the value. */
  record Nullable(Schema value) implements Schema {
    @Override
    public String describe() {
      return value.describe();
    }
  }

  /** A list or set: the count, then the elements. */
  record Sequence(String kind, Schema element) implements Schema {
    @Override
    public String describe() {
      return kind + "<" + element.describe() + ">";
    }
  }

  /** A map: the count, then key and value per entry. */
  record Dictionary(Schema key, Schema value) implements Schema {
    @Override
    public String describe() {
      return "Map<" + key.describe() + ", " + value.describe() + ">";
    }
  }

  /** A record or POJO: its fields in order, each by name. */
  record Struct(List<Field> fields) implements Schema {
    @Override
    public String describe() {
      return "record";
    }
  }

  /** One field of a struct. */
  record Field(String name, Schema schema) {}

  /** The type as a user reads it in an error message. */
  String describe();

  byte LEAF = 1;
  byte NULLABLE = 2;
  byte SEQUENCE = 3;
  byte DICTIONARY = 4;
  byte STRUCT = 5;

  static void write(Schema schema, BinaryOutput out) {
    if (schema instanceof Leaf leaf) {
      out.writeByte(LEAF);
      out.writeString(leaf.kind());
    } else if (schema instanceof Nullable nullable) {
      out.writeByte(NULLABLE);
      write(nullable.value(), out);
    } else if (schema instanceof Sequence sequence) {
      out.writeByte(SEQUENCE);
      out.writeString(sequence.kind());
      write(sequence.element(), out);
    } else if (schema instanceof Dictionary dictionary) {
      out.writeByte(DICTIONARY);
      write(dictionary.key(), out);
      write(dictionary.value(), out);
    } else if (schema instanceof Struct struct) {
      out.writeByte(STRUCT);
      out.writeUnsigned(struct.fields().size());
      for (Field field : struct.fields()) {
        out.writeString(field.name());
        write(field.schema(), out);
      }
    }
  }

  static Schema read(BinaryInput in) {
    int tag = in.readByte();
    return switch (tag) {
      case LEAF -> new Leaf(in.readString());
      case NULLABLE -> new Nullable(read(in));
      case SEQUENCE -> new Sequence(in.readString(), read(in));
      case DICTIONARY -> new Dictionary(read(in), read(in));
      case STRUCT -> {
        int count = in.readUnsigned();
        List<Field> fields = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          fields.add(new Field(in.readString(), read(in)));
        }
        yield new Struct(List.copyOf(fields));
      }
      default -> throw new IllegalArgumentException("Unknown schema tag " + tag);
    };
  }
}
