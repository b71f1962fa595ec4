package io.weir.runtime.operators;

/**
 * The head operator of a two-input task. {@link #processElement} takes the records of the first
 * input, {@link #processElement2} those of the second; both are called on the task thread, never
 * concurrently, in the order the task reads its channels, with every other call of {@link
 * StreamOperator} in its usual order. Watermarks arrive combined: the task calls {@link
 * #processWatermark} with the minimum of both inputs' watermarks.
 */
public interface TwoInputStreamOperator extends StreamOperator {
  void processElement2(Object record, long timestamp) throws Exception;
}
