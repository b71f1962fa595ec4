package io.weir.runtime.sink.twophase;

import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.StateSerializer;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one subtask of a two-phase-commit sink left in a checkpoint, for tools that explain a
 * recovery: the pre-committed transactions a restore will commit, by checkpoint id, and the one
 * that was open at the barrier, which a restore aborts. Decodes state written with the default
 * (Java) transaction serializer.
 *
 * @param pending each pending transaction's {@code toString()}, by checkpoint id
 * @param open the open transaction's {@code toString()}
 */
public record TransactionsInCheckpoint(SortedMap<Long, String> pending, String open) {

  /**
   * Decodes one element of the sink's operator state {@link TwoPhaseCommitSinkFunction#STATE_NAME}.
   */
  public static TransactionsInCheckpoint decode(byte[] state) {
    TwoPhaseCommitState<Object, Object> decoded =
        new TwoPhaseCommitStateCodec<>(StateSerializer.java(), StateSerializer.java())
            .decode(state);
    SortedMap<Long, String> pending = new TreeMap<>();
    decoded.pending().forEach((id, holder) -> pending.put(id, String.valueOf(holder.handle())));
    return new TransactionsInCheckpoint(pending, String.valueOf(decoded.current().handle()));
  }
}
