package io.weir.api.types;

import java.util.Map;

/** Primitives, strings and byte arrays: the values that need no field names. */
enum LeafCodec implements Codec {
  BOOLEAN("boolean") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeBoolean((Boolean) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return in.readByte() != 0;
    }
  },
  BYTE("byte") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeByte((Byte) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return (byte) in.readByte();
    }
  },
  SHORT("short") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeInt((Short) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return (short) in.readInt();
    }
  },
  CHAR("char") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeUnsigned((Character) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return (char) in.readUnsigned();
    }
  },
  INT("int") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeInt((Integer) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return in.readInt();
    }
  },
  LONG("long") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeLong((Long) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return in.readLong();
    }
  },
  FLOAT("float") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeUnsigned(Float.floatToRawIntBits((Float) value));
    }

    @Override
    public Object read(BinaryInput in) {
      return Float.intBitsToFloat(in.readUnsigned());
    }
  },
  DOUBLE("double") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeDouble((Double) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return Double.longBitsToDouble(in.readFixedLong());
    }
  },
  STRING("String") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeString((String) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return in.readString();
    }
  },
  BYTES("byte[]") {
    @Override
    public void write(BinaryOutput out, Object value) {
      out.writeBytes((byte[]) value);
    }

    @Override
    public Object read(BinaryInput in) {
      return in.readBytes();
    }
  };

  private static final Map<Class<?>, LeafCodec> BY_CLASS =
      Map.ofEntries(
          Map.entry(boolean.class, BOOLEAN),
          Map.entry(Boolean.class, BOOLEAN),
          Map.entry(byte.class, BYTE),
          Map.entry(Byte.class, BYTE),
          Map.entry(short.class, SHORT),
          Map.entry(Short.class, SHORT),
          Map.entry(char.class, CHAR),
          Map.entry(Character.class, CHAR),
          Map.entry(int.class, INT),
          Map.entry(Integer.class, INT),
          Map.entry(long.class, LONG),
          Map.entry(Long.class, LONG),
          Map.entry(float.class, FLOAT),
          Map.entry(Float.class, FLOAT),
          Map.entry(double.class, DOUBLE),
          Map.entry(Double.class, DOUBLE),
          Map.entry(String.class, STRING),
          Map.entry(byte[].class, BYTES));

  private final Schema schema;

  LeafCodec(String kind) {
    schema = new Schema.Leaf(kind);
  }

  /** The codec of a primitive, boxed primitive, string or byte array; null for other types. */
  static LeafCodec of(Class<?> type) {
    return BY_CLASS.get(type);
  }

  /** The codec that reads a leaf of this kind, for skipping a removed field. */
  static LeafCodec ofKind(String kind) {
    for (LeafCodec codec : values()) {
      if (codec.schema.describe().equals(kind)) {
        return codec;
      }
    }
    return null;
  }

  @Override
  public Schema schema() {
    return schema;
  }
}
