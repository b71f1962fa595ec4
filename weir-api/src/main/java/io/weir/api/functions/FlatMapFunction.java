package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** Turns one record into zero or more, emitted through the collector before returning. */
@Public
@FunctionalInterface
public interface FlatMapFunction<IN, OUT> extends Function {
  void flatMap(IN value, Collector<OUT> out) throws Exception;
}
