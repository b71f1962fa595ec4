package io.weir.avro;

import io.weir.api.types.TypeChangedException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * Turns Avro's verdict that the job's schema cannot read a written one into the field it is about:
 * Avro locates an incompatibility by a JSON pointer into the reader's schema ({@code
 * /fields/1/type}), which this resolves to the field's path ({@code count}, {@code address.zip},
 * {@code visits[]}, {@code byWord{value}}).
 */
final class AvroIncompatibility {
  private AvroIncompatibility() {}

  /**
   * @throws TypeChangedException naming the first incompatible field when Avro cannot resolve the
   *     written schema into the reader's
   */
  static void maybeRefuse(SchemaPairCompatibility compatibility, Schema reader) {
    if (compatibility.getType() == SchemaCompatibilityType.COMPATIBLE) {
      return;
    }
    Incompatibility first = compatibility.getResult().getIncompatibilities().get(0);
    throw new TypeChangedException(
        fieldPath(reader, first.getLocation()),
        typeName(first.getWriterFragment()),
        typeName(first.getReaderFragment()));
  }

  static String fieldPath(Schema reader, String location) {
    StringBuilder path = new StringBuilder();
    Schema current = reader;
    String[] steps = location.split("/");
    for (int i = 1; i < steps.length; i++) {
      switch (steps[i]) {
        case "fields" -> {
          if (i + 1 >= steps.length || current.getType() != Schema.Type.RECORD) {
            return path.toString();
          }
          Schema.Field field = current.getFields().get(Integer.parseInt(steps[++i]));
          path.append(path.isEmpty() ? "" : ".").append(field.name());
          current = field.schema();
        }
        case "items" -> {
          path.append("[]");
          current = current.getElementType();
        }
        case "values" -> {
          path.append("{value}");
          current = current.getValueType();
        }
        case "type", "" -> {}
        default -> {
          if (current.getType() != Schema.Type.UNION || !steps[i].matches("\\d+")) {
            return path.toString();
          }
          current = current.getTypes().get(Integer.parseInt(steps[i]));
        }
      }
    }
    return path.toString();
  }

  private static String typeName(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> schema.getFullName();
      default -> schema.getType().getName();
    };
  }
}
