package io.weir.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.types.TypeSerializer;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which state values a snapshot being written may share, and copies of those it may not. */
class SharedValueCopiesTest {
  private static final KeyGroupRange ALL = new KeyGroupRange(0, 15);

  enum Channel {
    WEB,
    APP {
      @Override
      public String toString() {
        return "app";
      }
    }
  }

  record Price(long cents, String currency, Channel channel) {}

  record PricedBid(long auction, Price price) {}

  record Bids(List<Price> prices) {}

  /** A mutable value kept through its type serializer. */
  public static final class Counter {
    public long count;
  }

  /** A mutable value kept by Java serialization. */
  static final class Tally implements Serializable {
    private static final long serialVersionUID = 1L;
    final List<Long> counts = new ArrayList<>();
  }

  @Test
  void when_aValueCannotChange_then_itIsShared() {
    assertThat(SharedValueCopies.isImmutable("bid")).isTrue();
    assertThat(SharedValueCopies.isImmutable(42L)).isTrue();
    assertThat(SharedValueCopies.isImmutable(Channel.APP)).isTrue();
    assertThat(SharedValueCopies.isImmutable(new Price(1, "EUR", Channel.WEB))).isTrue();
    assertThat(SharedValueCopies.isImmutable(new PricedBid(7, new Price(1, "EUR", Channel.WEB))))
        .isTrue();
  }

  @Test
  void when_aValueCanChangeInPlace_then_itIsNotShared() {
    assertThat(SharedValueCopies.isImmutable(new Bids(List.of()))).isFalse();
    assertThat(SharedValueCopies.isImmutable(new ArrayList<>())).isFalse();
    assertThat(SharedValueCopies.isImmutable(new Counter())).isFalse();
    assertThat(SharedValueCopies.isImmutable(new KeyTimerTimes())).isFalse();
    assertThat(SharedValueCopies.isImmutable(new long[1])).isFalse();
  }

  @Test
  void when_valuesAreCopied_then_theCopiesShareNothingChangeable() {
    // given
    HeapKeyedStateBackend backend =
        new HeapKeyedStateBackend("copies", ALL, 16, OperatorSubtaskState.EMPTY);
    TypedStates typedStates = new TypedStates("copies");
    typedStates.declare(
        "counters",
        TypedStateCodec.maybeOf(TypedStateCodec.Shape.VALUE, TypeSerializer.of(Counter.class)),
        backend.table("counters"));
    SharedValueCopies copies = new SharedValueCopies(typedStates);
    Counter counter = new Counter();
    counter.count = 3;
    Tally tally = new Tally();
    tally.counts.add(1L);
    KeyTimerTimes times = new KeyTimerTimes();
    times.add(10);

    // when
    Counter counterCopy = (Counter) copies.copy(backend.table("counters"), counter);
    Tally tallyCopy = (Tally) copies.copy(backend.table("tallies"), tally);
    KeyTimerTimes timesCopy = (KeyTimerTimes) copies.copy(backend.table("timers"), times);
    counterCopy.count++;
    tallyCopy.counts.add(2L);
    timesCopy.add(20);

    // then: the originals are as they were
    assertThat(counter.count).isEqualTo(3);
    assertThat(tally.counts).containsExactly(1L);
    assertThat(times.toString()).isEqualTo("[10]");
    assertThat(counterCopy.count).isEqualTo(4);
    assertThat(tallyCopy.counts).containsExactly(1L, 2L);
    assertThat(timesCopy.toString()).isEqualTo("[10, 20]");
  }
}
