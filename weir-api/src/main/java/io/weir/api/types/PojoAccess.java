package io.weir.api.types;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A POJO as Flink defines one: a public class with a public no-argument constructor whose
 * non-static, non-transient fields (its own and inherited) are each public and non-final, or have a
 * public getter and setter. Fields are ordered by name, so the order does not depend on the
 * compiler.
 */
final class PojoAccess implements StructAccess {
  private final Class<?> type;
  private final Constructor<?> constructor;
  private final List<Member> members = new ArrayList<>();
  private final List<Property> properties = new ArrayList<>();

  /** Reads and writes one field, directly or through its getter and setter. */
  private record Property(Field field, Method getter, Method setter) {
    Object get(Object instance) throws ReflectiveOperationException {
      return getter == null ? field.get(instance) : getter.invoke(instance);
    }

    void set(Object instance, Object value) throws ReflectiveOperationException {
      if (setter == null) {
        field.set(instance, value);
      } else {
        setter.invoke(instance, value);
      }
    }
  }

  private PojoAccess(Class<?> type, Constructor<?> constructor, List<Property> properties) {
    this.type = type;
    this.constructor = constructor;
    for (Property property : properties) {
      members.add(new Member(property.field().getName(), property.field().getGenericType()));
      this.properties.add(property);
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
  public Object get(Object instance, int index) {
    try {
      return properties.get(index).get(instance);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "Cannot read " + members.get(index).name() + " of " + type.getName(), e);
    }
  }

  @Override
  public Object create(Object[] values) {
    try {
      Object instance = constructor.newInstance();
      for (int i = 0; i < values.length; i++) {
        // A field the bytes lack keeps what the constructor gave it.
        if (values[i] != MISSING) {
          properties.get(i).set(instance, values[i]);
        }
      }
      return instance;
    } catch (InvocationTargetException | InstantiationException | IllegalAccessException e) {
      throw new IllegalStateException("Cannot create " + type.getName() + ": " + e, e);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot set a field of " + type.getName() + ": " + e, e);
    }
  }
}
