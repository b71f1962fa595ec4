/**
 * Checkpoints as a function sees them: {@link io.weir.api.checkpoint.CheckpointedFunction} to
 * snapshot and restore a function's own state, {@link io.weir.api.checkpoint.CheckpointListener} to
 * act once a checkpoint is complete (a two-phase-commit sink commits there), and the order in which
 * a chain is notified.
 */
package io.weir.api.checkpoint;
