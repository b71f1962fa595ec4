package io.weir.runtime.operators.window;

import io.weir.api.datastream.WindowJoin;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.types.TypeSerializer;
import io.weir.api.types.UnsupportedTypeException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The type a window keeps per window, as its functions declare it: an aggregate's accumulator type
 * ({@code ACC} of {@code AggregateFunction<IN, ACC, OUT>}), a reduce's record type, each read from
 * the class's generic signature as Flink's type extraction does. When that type is a record, a POJO
 * or another type {@link TypeSerializer} writes, the window's values get that serializer; a lambda,
 * a type variable or a type it cannot write falls back to the tagged default (Java serialization
 * for classes without a tag), and the reason is logged once. A window join keeps the list of its
 * records, tagged by side: when both inputs declared their record classes, each side is written by
 * its class's serializer ({@link TaggedUnionsSerializer}).
 */
public final class AccumulatedTypes {
  private static final Logger LOG = LoggerFactory.getLogger(AccumulatedTypes.class);

  private AccumulatedTypes() {}

  /** The serializer of the accumulated values: exactly one of the two is set. */
  public record Serializers(EvolvingSerializer<Object> typed, StateSerializer<Object> untyped) {}

  /**
   * The serializers of the values a window with these functions keeps; {@code operator} names it in
   * the log line of a fallback.
   */
  public static Serializers of(
      ReduceFunction<?> reduce, AggregateFunction<?, ?, ?> aggregate, String operator) {
    return of(reduce, aggregate, null, operator);
  }

  /** As {@link #of(ReduceFunction, AggregateFunction, String)}, with the window's function. */
  public static Serializers of(
      ReduceFunction<?> reduce,
      AggregateFunction<?, ?, ?> aggregate,
      ProcessWindowFunction<?, ?, ?, ?> windowFunction,
      String operator) {
    if (reduce == null
        && aggregate == null
        && windowFunction instanceof WindowJoin.PairsInWindow<?, ?, ?, ?> join) {
      return ofJoin(join, operator);
    }
    Optional<Class<?>> declared =
        reduce != null
            ? declaredArgument(reduce.getClass(), ReduceFunction.class, 0)
            : aggregate != null
                ? declaredArgument(aggregate.getClass(), AggregateFunction.class, 1)
                : Optional.empty();
    if (declared.isEmpty()) {
      return new Serializers(null, StateSerializers.tagged());
    }
    try {
      @SuppressWarnings("unchecked")
      Class<Object> type = (Class<Object>) declared.get();
      return new Serializers(TypeSerializer.of(type), null);
    } catch (UnsupportedTypeException e) {
      LOG.info(
          "{} keeps its windows' values by Java serialization: {}; a record or a POJO gets a"
              + " compact serializer",
          operator,
          e.getMessage());
      return new Serializers(null, StateSerializers.tagged());
    }
  }

  private static Serializers ofJoin(WindowJoin.PairsInWindow<?, ?, ?, ?> join, String operator) {
    if (join.firstType() == null || join.secondType() == null) {
      return new Serializers(null, StateSerializers.tagged());
    }
    try {
      return new Serializers(
          new TaggedUnionsSerializer(
              typeSerializer(join.firstType()), typeSerializer(join.secondType())),
          null);
    } catch (UnsupportedTypeException e) {
      LOG.info(
          "{} keeps its joined records by Java serialization: {}; a record or a POJO gets a"
              + " compact serializer",
          operator,
          e.getMessage());
      return new Serializers(null, StateSerializers.tagged());
    }
  }

  @SuppressWarnings("unchecked")
  private static EvolvingSerializer<Object> typeSerializer(Class<?> type) {
    return TypeSerializer.of((Class<Object>) type);
  }

  /**
   * The class {@code type}, or its nearest superclass that implements {@code generic}, gives its
   * argument {@code index}; empty for a lambda, a type variable or a parameterized type.
   */
  static Optional<Class<?>> declaredArgument(Class<?> type, Class<?> generic, int index) {
    for (Class<?> current = type; current != null; current = current.getSuperclass()) {
      for (Type implemented : current.getGenericInterfaces()) {
        if (implemented instanceof ParameterizedType parameterized
            && parameterized.getRawType() == generic) {
          // A parameterized argument (List<Bid>) is left to the fallback: its class alone does not
          // say its elements' type, which the serializer needs.
          Type argument = parameterized.getActualTypeArguments()[index];
          return argument instanceof Class<?> concrete ? Optional.of(concrete) : Optional.empty();
        }
      }
    }
    return Optional.empty();
  }
}
