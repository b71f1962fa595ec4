package io.weir.api.types;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Reads one member of a struct instance and writes it. A primitive member whose codec is its leaf
 * goes from getter to bytes unboxed; the bytes are those the leaf codec writes.
 */
@FunctionalInterface
interface MemberWriter {
  void write(BinaryOutput out, Object instance);

  /**
   * @param getter the member's accessor, getter or field getter, taking the instance
   * @param codec the codec chosen for the member's declared type
   */
  static MemberWriter of(MethodHandles.Lookup lookup, MethodHandle getter, Codec codec) {
    Class<?> type = getter.type().returnType();
    if (type == long.class && codec == LeafCodec.LONG) {
      ToLongFunction<Object> member = Accessors.toLong(lookup, getter);
      return (out, instance) -> out.writeLong(member.applyAsLong(instance));
    }
    if (type == int.class && codec == LeafCodec.INT) {
      ToIntFunction<Object> member = Accessors.toInt(lookup, getter);
      return (out, instance) -> out.writeInt(member.applyAsInt(instance));
    }
    if (type == double.class && codec == LeafCodec.DOUBLE) {
      ToDoubleFunction<Object> member = Accessors.toDouble(lookup, getter);
      return (out, instance) -> out.writeDouble(member.applyAsDouble(instance));
    }
    if (type == boolean.class && codec == LeafCodec.BOOLEAN) {
      Predicate<Object> member = Accessors.toBoolean(lookup, getter);
      return (out, instance) -> out.writeBoolean(member.test(instance));
    }
    Function<Object, Object> member = Accessors.getter(lookup, getter);
    return (out, instance) -> codec.write(out, member.apply(instance));
  }
}
