package io.weir.api.functions;

/** Turns one record into one record. Called by the task thread, one record at a time. */
@FunctionalInterface
public interface MapFunction<IN, OUT> extends Function {
  OUT map(IN value) throws Exception;
}
