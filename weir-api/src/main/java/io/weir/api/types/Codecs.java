package io.weir.api.types;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Chooses the codec of a type and, recursively, of its fields and elements, once per type. */
final class Codecs {
  private final Set<Class<?>> javaSerialized;
  private final Set<Class<?>> building = new HashSet<>();

  private Codecs(Set<Class<?>> javaSerialized) {
    this.javaSerialized = javaSerialized;
  }

  /** The codec of a top-level value, which is never null. */
  static Codec of(Class<?> type, Set<Class<?>> javaSerialized) {
    Codec codec;
    try {
      codec = new Codecs(javaSerialized).of(type, "");
    } catch (UnsupportedTypeException e) {
      throw e.in(type);
    }
    return codec instanceof NullableCodec nullable ? nullable.value() : codec;
  }

  private Codec of(Type type, String path) {
    Class<?> raw = rawClass(type, path);
    if (javaSerialized.contains(raw)) {
      return new NullableCodec(new JavaCodec());
    }
    LeafCodec leaf = LeafCodec.of(raw);
    if (leaf != null) {
      return raw.isPrimitive() ? leaf : new NullableCodec(leaf);
    }
    if (raw.isEnum()) {
      @SuppressWarnings("unchecked")
      Class<? extends Enum<?>> enumType = (Class<? extends Enum<?>>) raw;
      return new NullableCodec(new EnumCodec(enumType));
    }
    if (Map.class.isAssignableFrom(raw)) {
      return new NullableCodec(
          new MapCodec(
              of(argument(type, 0, path), path + "{key}"),
              of(argument(type, 1, path), path + "{value}"),
              mapFactory(raw, path)));
    }
    if (Collection.class.isAssignableFrom(raw)) {
      boolean set = Set.class.isAssignableFrom(raw);
      return new NullableCodec(
          new SequenceCodec(
              set ? "Set" : "List",
              of(argument(type, 0, path), path + "[]"),
              collectionFactory(raw, set, path)));
    }
    if (raw.isRecord()) {
      return new NullableCodec(struct(raw, new RecordAccess(raw), path));
    }
    if (raw.isArray() || raw.isInterface()) {
      throw unsupported(raw, path, "only byte[], List, Set and Map hold several values");
    }
    StringBuilder reason = new StringBuilder();
    PojoAccess pojo =
        PojoAccess.of(raw, reason).orElseThrow(() -> unsupported(raw, path, reason.toString()));
    return new NullableCodec(struct(raw, pojo, path));
  }

  private StructCodec struct(Class<?> raw, StructAccess access, String path) {
    if (!building.add(raw)) {
      throw unsupported(raw, path, "it contains itself");
    }
    StructCodec codec = new StructCodec(access);
    List<StructAccess.Member> members = access.members();
    for (int i = 0; i < members.size(); i++) {
      String name = members.get(i).name();
      codec.setField(i, of(members.get(i).type(), path.isEmpty() ? name : path + "." + name));
    }
    building.remove(raw);
    return codec;
  }

  private static Class<?> rawClass(Type type, String path) {
    if (type instanceof Class<?> plain) {
      return plain;
    }
    if (type instanceof ParameterizedType parameterized) {
      return (Class<?>) parameterized.getRawType();
    }
    if (type instanceof WildcardType wildcard && wildcard.getLowerBounds().length == 0) {
      return rawClass(wildcard.getUpperBounds()[0], path);
    }
    if (type instanceof GenericArrayType) {
      throw unsupported(type.getTypeName(), path, "only byte[] arrays are supported, use a List");
    }
    throw unsupported(type.getTypeName(), path, "its class is not known after erasure");
  }

  private static Type argument(Type type, int index, String path) {
    if (type instanceof ParameterizedType parameterized) {
      return parameterized.getActualTypeArguments()[index];
    }
    throw unsupported(type.getTypeName(), path, "its element type is not declared");
  }

  private static java.util.function.IntFunction<Collection<Object>> collectionFactory(
      Class<?> raw, boolean set, String path) {
    if (raw.isAssignableFrom(ArrayList.class) && !set) {
      return ArrayList::new;
    }
    if (raw.isAssignableFrom(LinkedHashSet.class)) {
      return LinkedHashSet::new;
    }
    if (SortedSet.class.isAssignableFrom(raw) || NavigableSet.class.isAssignableFrom(raw)) {
      if (raw.isAssignableFrom(TreeSet.class)) {
        return size -> new TreeSet<>();
      }
    }
    throw unsupported(raw, path, "only List, Set, SortedSet and their common classes are known");
  }

  private static java.util.function.IntFunction<Map<Object, Object>> mapFactory(
      Class<?> raw, String path) {
    if (raw.isAssignableFrom(LinkedHashMap.class)) {
      return LinkedHashMap::new;
    }
    if ((SortedMap.class.isAssignableFrom(raw) || NavigableMap.class.isAssignableFrom(raw))
        && raw.isAssignableFrom(TreeMap.class)) {
      return size -> new TreeMap<>();
    }
    throw unsupported(raw, path, "only Map, SortedMap and their common classes are known");
  }

  private static UnsupportedTypeException unsupported(Class<?> type, String path, String reason) {
    return unsupported(type.getName(), path, reason);
  }

  private static UnsupportedTypeException unsupported(String type, String path, String reason) {
    return new UnsupportedTypeException(type, path, reason);
  }
}
