package io.weir.api.checkpoint;

import io.weir.api.annotation.Public;

/** How barriers are handled at tasks with several input channels. */
@Public
public enum CheckpointingMode {
  /** Align: hold a channel that delivered the barrier until all channels have. */
  EXACTLY_ONCE,
  /** Do not hold channels: a snapshot may include records after the barrier. */
  AT_LEAST_ONCE
}
