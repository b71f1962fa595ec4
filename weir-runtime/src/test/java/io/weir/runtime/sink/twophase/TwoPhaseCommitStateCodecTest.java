package io.weir.runtime.sink.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionStatus;
import io.weir.api.state.StateSerializer;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TwoPhaseCommitStateCodecTest {
  private final TwoPhaseCommitStateCodec<String, String> codec =
      new TwoPhaseCommitStateCodec<>(StateSerializer.java(), StateSerializer.java());

  @Test
  void when_stateEncodedAndDecoded_then_everythingSurvives() {
    TreeMap<Long, TransactionHolder<String>> pending = new TreeMap<>();
    pending.put(4L, new TransactionHolder<>("txn-2", 20).moveTo(TransactionStatus.PRE_COMMITTED));
    pending.put(3L, new TransactionHolder<>("txn-1", 10).moveTo(TransactionStatus.PRE_COMMITTED));
    TwoPhaseCommitState<String, String> state =
        new TwoPhaseCommitState<>(
            new TransactionHolder<>("txn-3", 30), pending, Optional.of("context"));

    TwoPhaseCommitState<String, String> decoded = codec.decode(codec.encode(state));

    assertThat(decoded).isEqualTo(state);
    assertThat(decoded.pending().keySet()).containsExactly(3L, 4L);
  }

  @Test
  void when_noContext_then_decodedWithoutContext() {
    TwoPhaseCommitState<String, String> state =
        new TwoPhaseCommitState<>(
            new TransactionHolder<>("txn-1", 10), new TreeMap<>(), Optional.empty());

    assertThat(codec.decode(codec.encode(state)).context()).isEmpty();
  }
}
