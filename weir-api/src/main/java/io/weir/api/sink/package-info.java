/**
 * Sinks: {@link io.weir.api.sink.SinkFunction} for plain ones and {@link
 * io.weir.api.sink.TwoPhaseCommitSinkFunction}, the base of every exactly-once sink (begin,
 * preCommit on a checkpoint, commit once it completes, abort), as the seed describes it.
 */
package io.weir.api.sink;
