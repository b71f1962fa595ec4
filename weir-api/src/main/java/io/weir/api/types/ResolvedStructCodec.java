package io.weir.api.types;

import java.util.Arrays;

/**
 * Reads a struct written with an older schema into the current type: each written field goes to the
 * current field of its name or is skipped; current fields the bytes lack get their default.
 */
final class ResolvedStructCodec implements Codec {
  private final StructAccess access;
  private final Codec[] writtenFields;
  private final int[] targets;
  private final Schema written;

  /**
   * @param targets per written field, the index of the current field it fills, or -1 to skip it
   */
  ResolvedStructCodec(StructAccess access, Codec[] writtenFields, int[] targets, Schema written) {
    this.access = access;
    this.writtenFields = writtenFields;
    this.targets = targets;
    this.written = written;
  }

  @Override
  public void write(BinaryOutput out, Object value) {
    throw new UnsupportedOperationException("A resolved struct only reads old bytes");
  }

  @Override
  public Object read(BinaryInput in) {
    Object[] values = new Object[access.members().size()];
    Arrays.fill(values, StructAccess.MISSING);
    for (int i = 0; i < writtenFields.length; i++) {
      Object value = writtenFields[i].read(in);
      if (targets[i] >= 0) {
        values[targets[i]] = value;
      }
    }
    return access.create(values);
  }

  @Override
  public Schema schema() {
    return written;
  }
}
