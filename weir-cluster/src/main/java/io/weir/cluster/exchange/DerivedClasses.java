package io.weir.cluster.exchange;

import io.weir.api.types.TypeSerializer;
import io.weir.cluster.rpc.ClassAllowlist;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The record classes of one batch being decoded, in the order the sender named them: a class is
 * named once per batch and referred to by its index after that. Only a class the job's records may
 * be ({@link ClassAllowlist#allowsRecordClass}) is loaded, and only one the default serializer
 * writes is read.
 */
final class DerivedClasses {
  private final ClassLoader loader;
  private final ClassAllowlist allowlist;
  private final List<TypeSerializer<Object>> serializers = new ArrayList<>();

  DerivedClasses(ClassLoader loader) {
    this.loader = loader;
    this.allowlist = ClassAllowlist.records(loader);
  }

  /** Reads a class index (and name, the first time) and gives the class's serializer. */
  TypeSerializer<Object> serializer(ObjectInputStream in) throws IOException {
    int index = in.readInt();
    if (index < serializers.size()) {
      return serializers.get(index);
    }
    if (index != serializers.size()) {
      throw new IOException("Record class " + index + " of a batch was never named");
    }
    String name = in.readUTF();
    Class<?> type;
    try {
      type = Class.forName(name, false, loader);
    } catch (ClassNotFoundException e) {
      throw new IOException("Record class " + name + " is not on the job's class path", e);
    }
    if (!allowlist.allowsRecordClass(type)) {
      throw new IOException("Record class " + name + " is not a class of the job's records");
    }
    TypeSerializer<Object> serializer =
        DerivedSerializers.of(type)
            .orElseThrow(() -> new IOException("Record class " + name + " has no serializer"));
    serializers.add(serializer);
    return serializer;
  }
}
