package io.weir.api.checkpoint;

import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.OperatorStateStore;
import java.util.OptionalLong;

/** Where a function gets its state handles from when the task starts. */
public interface FunctionInitializationContext {
  /** True when the state comes from a checkpoint or savepoint. */
  boolean isRestored();

  /** The id of the checkpoint restored from, when restored. */
  OptionalLong restoredCheckpointId();

  OperatorStateStore getOperatorStateStore();

  /** Keyed state; throws {@link IllegalStateException} on a function not after a keyBy. */
  KeyedStateStore getKeyedStateStore();
}
