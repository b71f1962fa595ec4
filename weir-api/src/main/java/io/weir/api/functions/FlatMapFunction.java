package io.weir.api.functions;

/** Turns one record into zero or more, emitted through the collector before returning. */
@FunctionalInterface
public interface FlatMapFunction<IN, OUT> extends Function {
  void flatMap(IN value, Collector<OUT> out) throws Exception;
}
