package io.weir.api.types;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/** A Java record: its components through their accessors, built by its canonical constructor. */
final class RecordAccess implements StructAccess {
  private final Class<?> type;
  private final List<Member> members = new ArrayList<>();
  private final Method[] accessors;
  private final Object[] defaults;
  private final Constructor<?> constructor;

  RecordAccess(Class<?> type) {
    this.type = type;
    RecordComponent[] components = type.getRecordComponents();
    accessors = new Method[components.length];
    defaults = new Object[components.length];
    Class<?>[] parameterTypes = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      members.add(new Member(components[i].getName(), components[i].getGenericType()));
      accessors[i] = components[i].getAccessor();
      accessors[i].setAccessible(true);
      defaults[i] = StructAccess.defaultOf(components[i].getType());
      parameterTypes[i] = components[i].getType();
    }
    try {
      constructor = type.getDeclaredConstructor(parameterTypes);
      constructor.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("Record " + type.getName() + " has no canonical constructor");
    }
  }

  @Override
  public List<Member> members() {
    return members;
  }

  @Override
  public Object get(Object instance, int index) {
    try {
      return accessors[index].invoke(instance);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException(
          "Cannot read " + members.get(index).name() + " of " + type.getName(), e);
    }
  }

  @Override
  public Object create(Object[] values) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == MISSING) {
        values[i] = defaults[i];
      }
    }
    try {
      return constructor.newInstance(values);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Cannot create " + type.getName() + ": " + e, e);
    }
  }
}
