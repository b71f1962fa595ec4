package io.weir.api.types;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Turns a struct's getters, setters and constructor into plain functions, once per type. A function
 * made by the lambda factory is called as directly as a lambda, where {@code Method.invoke} checks
 * access and boxes on every call. Field handles and classes the factory may not define a nestmate
 * for (a class of another class loader) fall back to calling the method handle.
 */
final class Accessors {
  private Accessors() {}

  /** The lookup with private access to {@code type}, as {@code setAccessible} gave before. */
  static MethodHandles.Lookup lookupIn(Class<?> type) {
    try {
      return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot access the members of " + type.getName(), e);
    }
  }

  @SuppressWarnings("unchecked")
  static ToLongFunction<Object> toLong(MethodHandles.Lookup lookup, MethodHandle getter) {
    ToLongFunction<Object> made = implement(lookup, ToLongFunction.class, "applyAsLong", getter);
    if (made != null) {
      return made;
    }
    MethodHandle handle = getter.asType(MethodType.methodType(long.class, Object.class));
    return instance -> {
      try {
        return (long) handle.invokeExact(instance);
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  @SuppressWarnings("unchecked")
  static ToIntFunction<Object> toInt(MethodHandles.Lookup lookup, MethodHandle getter) {
    ToIntFunction<Object> made = implement(lookup, ToIntFunction.class, "applyAsInt", getter);
    if (made != null) {
      return made;
    }
    MethodHandle handle = getter.asType(MethodType.methodType(int.class, Object.class));
    return instance -> {
      try {
        return (int) handle.invokeExact(instance);
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  @SuppressWarnings("unchecked")
  static ToDoubleFunction<Object> toDouble(MethodHandles.Lookup lookup, MethodHandle getter) {
    ToDoubleFunction<Object> made =
        implement(lookup, ToDoubleFunction.class, "applyAsDouble", getter);
    if (made != null) {
      return made;
    }
    MethodHandle handle = getter.asType(MethodType.methodType(double.class, Object.class));
    return instance -> {
      try {
        return (double) handle.invokeExact(instance);
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  @SuppressWarnings("unchecked")
  static Predicate<Object> toBoolean(MethodHandles.Lookup lookup, MethodHandle getter) {
    Predicate<Object> made = implement(lookup, Predicate.class, "test", getter);
    if (made != null) {
      return made;
    }
    MethodHandle handle = getter.asType(MethodType.methodType(boolean.class, Object.class));
    return instance -> {
      try {
        return (boolean) handle.invokeExact(instance);
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  /** A getter of any type; a primitive comes back boxed. */
  @SuppressWarnings("unchecked")
  static Function<Object, Object> getter(MethodHandles.Lookup lookup, MethodHandle getter) {
    Function<Object, Object> made = implement(lookup, Function.class, "apply", getter);
    if (made != null) {
      return made;
    }
    MethodHandle handle = getter.asType(MethodType.methodType(Object.class, Object.class));
    return instance -> {
      try {
        return (Object) handle.invokeExact(instance);
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  /** A setter or field setter; a primitive is passed boxed. */
  @SuppressWarnings("unchecked")
  static BiConsumer<Object, Object> setter(MethodHandles.Lookup lookup, MethodHandle setter) {
    BiConsumer<Object, Object> made = implement(lookup, BiConsumer.class, "accept", setter);
    if (made != null) {
      return made;
    }
    MethodHandle handle =
        setter.asType(MethodType.methodType(void.class, Object.class, Object.class));
    return (instance, value) -> {
      try {
        handle.invokeExact(instance, value);
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  /** A no-argument constructor. */
  @SuppressWarnings("unchecked")
  static Supplier<Object> constructor(MethodHandles.Lookup lookup, MethodHandle constructor) {
    Supplier<Object> made = implement(lookup, Supplier.class, "get", constructor);
    if (made != null) {
      return made;
    }
    MethodHandle handle = constructor.asType(MethodType.methodType(Object.class));
    return () -> {
      try {
        return (Object) handle.invokeExact();
      } catch (Throwable e) {
        throw failed(e);
      }
    };
  }

  /**
   * The functional interface implemented by the direct method behind {@code target}, or null where
   * the factory cannot make one: it takes only methods and constructors, and only from a lookup
   * with full access to the class, which a class of another class loader does not grant.
   */
  private static <F> F implement(
      MethodHandles.Lookup lookup, Class<F> type, String method, MethodHandle target) {
    MethodType erased = erasedSignature(type, method);
    MethodType instantiated = erased;
    for (int i = 0; i < erased.parameterCount(); i++) {
      Class<?> parameter = erased.parameterType(i);
      instantiated =
          instantiated.changeParameterType(
              i, parameter.isPrimitive() ? parameter : boxed(target.type().parameterType(i)));
    }
    Class<?> result = erased.returnType();
    instantiated =
        instantiated.changeReturnType(
            result.isPrimitive() ? result : boxed(target.type().returnType()));
    try {
      return type.cast(
          LambdaMetafactory.metafactory(
                  lookup, method, MethodType.methodType(type), erased, target, instantiated)
              .getTarget()
              .invoke());
    } catch (Throwable e) {
      return null;
    }
  }

  private static MethodType erasedSignature(Class<?> type, String method) {
    for (java.lang.reflect.Method candidate : type.getMethods()) {
      if (candidate.getName().equals(method)
          && java.lang.reflect.Modifier.isAbstract(candidate.getModifiers())) {
        return MethodType.methodType(candidate.getReturnType(), candidate.getParameterTypes());
      }
    }
    throw new IllegalArgumentException(type.getName() + " has no abstract " + method);
  }

  private static Class<?> boxed(Class<?> type) {
    return MethodType.methodType(type).wrap().returnType();
  }

  private static RuntimeException failed(Throwable e) {
    if (e instanceof RuntimeException runtime) {
      return runtime;
    }
    if (e instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(e);
  }
}
