package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** Base for rich functions: keeps the runtime context. */
@Public
public abstract class AbstractRichFunction implements RichFunction {
  private transient RuntimeContext runtimeContext;

  @Override
  public void setRuntimeContext(RuntimeContext context) {
    this.runtimeContext = context;
  }

  @Override
  public RuntimeContext getRuntimeContext() {
    if (runtimeContext == null) {
      throw new IllegalStateException("The runtime context is set only when the task runs");
    }
    return runtimeContext;
  }

  /** Whether a runtime context was set: false on an instance driven outside a job. */
  protected final boolean hasRuntimeContext() {
    return runtimeContext != null;
  }
}
