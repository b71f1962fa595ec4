package io.weir.api.checkpoint;

import io.weir.api.annotation.Public;
import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.OperatorStateStore;
import java.util.OptionalLong;

/** Where a function gets its state handles from when the task starts. */
@Public
public interface FunctionInitializationContext {
  /** True when the state comes from a checkpoint or savepoint. */
  boolean isRestored();

  /** The id of the checkpoint restored from, when restored. */
  OptionalLong restoredCheckpointId();

  /**
   * True when, before this task started, the job settled every transaction recorded in the restored
   * state (see {@link io.weir.api.sink.RecoverableSink}): a two-phase-commit sink then neither
   * commits nor aborts them again, since their ids may already be in use by other subtasks. False
   * by default, for a harness that restores one function on its own.
   */
  default boolean restoredTransactionsSettled() {
    return false;
  }

  OperatorStateStore getOperatorStateStore();

  /** Keyed state; throws {@link IllegalStateException} on a function not after a keyBy. */
  KeyedStateStore getKeyedStateStore();
}
