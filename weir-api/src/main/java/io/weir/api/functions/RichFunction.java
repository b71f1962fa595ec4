package io.weir.api.functions;

import io.weir.api.annotation.Public;

/**
 * A function with a lifecycle. The task thread calls {@link #setRuntimeContext} first, then {@link
 * #open} once before the first record (after state was initialized), and {@link #close} once after
 * the last, also when the task fails or is cancelled (close must not throw for that).
 */
@Public
public interface RichFunction extends Function {
  void setRuntimeContext(RuntimeContext context);

  RuntimeContext getRuntimeContext();

  default void open() throws Exception {}

  default void close() throws Exception {}
}
