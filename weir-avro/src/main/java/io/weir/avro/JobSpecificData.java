package io.weir.avro;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * Specific data for the classes a job names: the named types of the schema its specific class
 * carries load from the class's own class loader. Avro's class allow-list (its trusted packages)
 * guards against class names in schemas from elsewhere; these come from the job's code, and would
 * otherwise need a system property in every process the job runs in.
 */
final class JobSpecificData extends SpecificData {
  private final Set<String> jobTypes = new HashSet<>();
  private final Map<String, Class<?>> classes = new ConcurrentHashMap<>();

  JobSpecificData(Class<?> type, Schema schema) {
    super(type.getClassLoader());
    collectNamedTypes(schema, jobTypes);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class getClass(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED ->
          jobTypes.contains(schema.getFullName())
              ? classes.computeIfAbsent(schema.getFullName(), name -> load(schema))
              : super.getClass(schema);
      default -> super.getClass(schema);
    };
  }

  private Class<?> load(Schema schema) {
    String name = getClassName(schema);
    try {
      return Class.forName(name, false, getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new AvroRuntimeException("No class " + name + " for Avro type " + schema.getFullName());
    }
  }

  private static void collectNamedTypes(Schema schema, Set<String> names) {
    switch (schema.getType()) {
      case RECORD -> {
        if (names.add(schema.getFullName())) {
          schema.getFields().forEach(field -> collectNamedTypes(field.schema(), names));
        }
      }
      case ENUM, FIXED -> names.add(schema.getFullName());
      case ARRAY -> collectNamedTypes(schema.getElementType(), names);
      case MAP -> collectNamedTypes(schema.getValueType(), names);
      case UNION -> schema.getTypes().forEach(type -> collectNamedTypes(type, names));
      default -> {}
    }
  }
}
