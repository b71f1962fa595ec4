/**
 * The engine behind {@link io.weir.api.sink.TwoPhaseCommitSinkFunction}: the open and pending
 * transactions of a sink subtask ({@link io.weir.runtime.sink.twophase.SinkTransactions}), their
 * commits on the task thread or in the background, the state written to checkpoints, and the
 * recovery of a restored checkpoint's transactions. The sink is the facade users extend; it finds
 * this engine through {@link io.weir.runtime.sink.twophase.TwoPhaseCommitEngines}.
 */
package io.weir.runtime.sink.twophase;
