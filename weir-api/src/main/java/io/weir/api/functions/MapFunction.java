package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** Turns one record into one record. Called by the task thread, one record at a time. */
@Public
@FunctionalInterface
public interface MapFunction<IN, OUT> extends Function {
  OUT map(IN value) throws Exception;
}
