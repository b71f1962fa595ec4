package io.weir.api.types;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/** A Java record: its components through their accessors, built by its canonical constructor. */
final class RecordAccess implements StructAccess {
  private final Class<?> type;
  private final MethodHandles.Lookup lookup;
  private final List<Member> members = new ArrayList<>();
  private final MethodHandle[] accessors;
  private final Object[] defaults;
  private final MethodHandle constructor;

  RecordAccess(Class<?> type) {
    this.type = type;
    lookup = Accessors.lookupIn(type);
    RecordComponent[] components = type.getRecordComponents();
    accessors = new MethodHandle[components.length];
    defaults = new Object[components.length];
    Class<?>[] parameterTypes = new Class<?>[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        members.add(new Member(components[i].getName(), components[i].getGenericType()));
        accessors[i] = lookup.unreflect(components[i].getAccessor());
        defaults[i] = StructAccess.defaultOf(components[i].getType());
        parameterTypes[i] = components[i].getType();
      }
      // Spread once here, so that each create is one call with the values read.
      constructor =
          lookup
              .findConstructor(type, MethodType.methodType(void.class, parameterTypes))
              .asSpreader(Object[].class, components.length)
              .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("Record " + type.getName() + " has no canonical constructor");
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot access the members of " + type.getName(), e);
    }
  }

  @Override
  public List<Member> members() {
    return members;
  }

  @Override
  public MemberWriter writer(int index, Codec codec) {
    return MemberWriter.of(lookup, accessors[index], codec);
  }

  @Override
  public Object create(Object[] values) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == MISSING) {
        values[i] = defaults[i];
      }
    }
    try {
      return (Object) constructor.invokeExact(values);
    } catch (Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot create " + type.getName() + ": " + e, e);
    }
  }
}
