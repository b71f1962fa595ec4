package io.weir.api.types;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A POJO as Flink defines one: a public class with a public no-argument constructor whose
 * non-static, non-transient fields (its own and inherited) are each public and non-final, or have a
 * public getter and setter. Fields are ordered by name, so the order does not depend on the
 * compiler.
 */
final class PojoAccess implements StructAccess {
  private final Class<?> type;
  private final MethodHandles.Lookup lookup;
  private final Supplier<Object> constructor;
  private final List<Member> members = new ArrayList<>();
  private final MethodHandle[] getters;
  private final List<BiConsumer<Object, Object>> setters = new ArrayList<>();

  /** Reads and writes one field, directly or through its getter and setter. */
  private record Property(Field field, Method getter, Method setter) {
    MethodHandle getterIn(MethodHandles.Lookup lookup) throws IllegalAccessException {
      return getter == null ? lookup.unreflectGetter(field) : lookup.unreflect(getter);
    }

    MethodHandle setterIn(MethodHandles.Lookup lookup) throws IllegalAccessException {
      return setter == null ? lookup.unreflectSetter(field) : lookup.unreflect(setter);
    }
  }

  private PojoAccess(Class<?> type, Constructor<?> constructor, List<Property> properties) {
    this.type = type;
    lookup = Accessors.lookupIn(type);
    getters = new MethodHandle[properties.size()];
    try {
      this.constructor = Accessors.constructor(lookup, lookup.unreflectConstructor(constructor));
      for (int i = 0; i < properties.size(); i++) {
        Property property = properties.get(i);
        members.add(new Member(property.field().getName(), property.field().getGenericType()));
        getters[i] = property.getterIn(lookup);
        setters.add(Accessors.setter(lookup, property.setterIn(lookup)));
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot access the members of " + type.getName(), e);
    }
  }

  /** The access of a POJO, or empty with the reason the type is not one. */
  static Optional<PojoAccess> of(Class<?> type, StringBuilder reason) {
    if (!Modifier.isPublic(type.getModifiers())
        || Modifier.isAbstract(type.getModifiers())
        || type.isInterface()
        || (type.getEnclosingClass() != null && !Modifier.isStatic(type.getModifiers()))) {
      reason.append("it is not a public, concrete, top-level or static class");
      return Optional.empty();
    }
    Constructor<?> constructor;
    try {
      constructor = type.getConstructor();
    } catch (NoSuchMethodException e) {
      reason.append("it has no public no-argument constructor");
      return Optional.empty();
    }
    List<Property> properties = new ArrayList<>();
    for (Class<?> level = type; level != Object.class; level = level.getSuperclass()) {
      for (Field field : level.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers)) {
          continue;
        }
        Property property = propertyOf(type, field);
        if (property == null) {
          reason.append("field ").append(field.getName()).append(" is neither public nor has");
          reason.append(" a public getter and setter");
          return Optional.empty();
        }
        properties.add(property);
      }
    }
    if (properties.isEmpty()) {
      reason.append("it has no fields");
      return Optional.empty();
    }
    properties.sort(Comparator.comparing(property -> property.field().getName()));
    return Optional.of(new PojoAccess(type, constructor, properties));
  }

  private static Property propertyOf(Class<?> type, Field field) {
    int modifiers = field.getModifiers();
    if (Modifier.isPublic(modifiers) && !Modifier.isFinal(modifiers)) {
      return new Property(field, null, null);
    }
    String suffix = Character.toUpperCase(field.getName().charAt(0)) + field.getName().substring(1);
    Method getter = publicMethod(type, "get" + suffix);
    if (getter == null && (field.getType() == boolean.class || field.getType() == Boolean.class)) {
      getter = publicMethod(type, "is" + suffix);
    }
    Method setter = publicMethod(type, "set" + suffix, field.getType());
    if (getter == null || setter == null || getter.getReturnType() != field.getType()) {
      return null;
    }
    return new Property(field, getter, setter);
  }

  private static Method publicMethod(Class<?> type, String name, Class<?>... parameters) {
    try {
      return type.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  @Override
  public List<Member> members() {
    return members;
  }

  @Override
  public MemberWriter writer(int index, Codec codec) {
    return MemberWriter.of(lookup, getters[index], codec);
  }

  @Override
  public Object create(Object[] values) {
    try {
      Object instance = constructor.get();
      for (int i = 0; i < values.length; i++) {
        // A field the bytes lack keeps what the constructor gave it.
        if (values[i] != MISSING) {
          setters.get(i).accept(instance, values[i]);
        }
      }
      return instance;
    } catch (RuntimeException e) {
      throw new IllegalStateException("Cannot create " + type.getName() + ": " + e, e);
    }
  }
}
