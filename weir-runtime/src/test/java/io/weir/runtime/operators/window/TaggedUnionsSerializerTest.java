package io.weir.runtime.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.TaggedUnion;
import io.weir.api.datastream.WindowJoin;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.windowing.TimeWindow;
import io.weir.runtime.state.HeapKeyedStateBackend;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.OperatorSubtaskState;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bytes a window join keeps per key: its records tagged by side, each by its input's type. */
@SuppressWarnings("unchecked")
class TaggedUnionsSerializerTest {
  private static final TimeWindow FIRST = new TimeWindow(0, 10);
  private static final TimeWindow SECOND = new TimeWindow(10, 20);

  record Order(long id, String customer) implements Serializable {}

  record Payment(long order, long cents) implements Serializable {}

  /** A later version of {@link Payment}: it gained a field. */
  record PaymentWithCurrency(long order, long cents, String currency) implements Serializable {}

  private static final WindowContentsSerializer TYPED =
      WindowContentsSerializer.of(
          AccumulatedTypes.of(null, null, join(Order.class, Payment.class), "orders-payments"));

  /** What the window join's contents were written with before their records had types. */
  private static final WindowContentsSerializer UNTYPED =
      WindowContentsSerializer.of(
          AccumulatedTypes.of(null, null, join(null, null), "orders-payments"));

  @Test
  void when_bothInputTypesAreKnown_then_theWindowsRoundTripWithoutJavaSerialization() {
    // given: two windows, each with both sides' records in arrival order
    Map<TimeWindow, Object> windows = ordersAndPayments(7);

    // when
    byte[] bytes = TYPED.serialize(windows);
    Map<Object, Object> back = (Map<Object, Object>) TYPED.deserialize(bytes);

    // then: equal, in order, as lists the window can append to, and no Java serialization stream
    assertThat(TYPED).isInstanceOf(EvolvingSerializer.class);
    assertThat(back).isEqualTo(windows);
    assertThat(back.get(FIRST)).isInstanceOf(ArrayList.class);
    assertThat(javaSerializationStreamsIn(bytes)).isZero();
    assertThat(javaSerializationStreamsIn(UNTYPED.serialize(windows))).isEqualTo(2);
  }

  @Test
  void when_aSideTypeIsUnknown_then_javaSerializationKeepsTheWindows() {
    // given: the second input declared no record class
    WindowContentsSerializer halfTyped =
        WindowContentsSerializer.of(
            AccumulatedTypes.of(null, null, join(Order.class, null), "orders-payments"));

    // when
    byte[] bytes = halfTyped.serialize(ordersAndPayments(3));

    // then
    assertThat(halfTyped).isNotInstanceOf(EvolvingSerializer.class);
    assertThat(halfTyped.deserialize(bytes)).isEqualTo(ordersAndPayments(3));
    assertThat(javaSerializationStreamsIn(bytes)).isEqualTo(2);
  }

  @Test
  void when_windowsWrittenByTheEarlierCodeAreRead_then_theyRestoreAndAreRewrittenTyped() {
    // given: a key's windows as the join wrote them before its records had types
    byte[] earlier = UNTYPED.serialize(ordersAndPayments(5));

    // when
    Object restored = TYPED.deserialize(earlier);
    byte[] rewritten = TYPED.serialize(restored);

    // then
    assertThat(restored).isEqualTo(ordersAndPayments(5));
    assertThat(((Map<Object, Object>) restored).get(SECOND)).isInstanceOf(ArrayList.class);
    assertThat(javaSerializationStreamsIn(rewritten)).isZero();
    assertThat(TYPED.deserialize(rewritten)).isEqualTo(ordersAndPayments(5));
  }

  @Test
  void when_aHeapCheckpointOfTheEarlierCodeIsRestored_then_theNextSnapshotRestoresTyped() {
    // given: a heap checkpoint whose join windows were kept by the untyped serializer
    KeyGroupRange all = new KeyGroupRange(0, 15);
    HeapKeyedStateBackend earlier =
        new HeapKeyedStateBackend("join", all, 16, OperatorSubtaskState.EMPTY);
    KeyedTable earlierTable = earlier.table("window-contents", UNTYPED);
    for (long key = 1; key <= 3; key++) {
      earlier.setCurrentKey(key);
      earlierTable.put(ordersAndPayments(key));
    }
    OperatorSubtaskState earlierCheckpoint =
        new OperatorSubtaskState(Map.of(), Map.of(), earlier.snapshot(1));

    // when: restored by the typed serializer, checkpointed, and restored again
    HeapKeyedStateBackend restored = new HeapKeyedStateBackend("join", all, 16, earlierCheckpoint);
    restored.table("window-contents", TYPED);
    HeapKeyedStateBackend again =
        new HeapKeyedStateBackend(
            "join", all, 16, new OperatorSubtaskState(Map.of(), Map.of(), restored.snapshot(2)));
    KeyedTable table = again.table("window-contents", TYPED);

    // then: every key's windows, record for record
    for (long key = 1; key <= 3; key++) {
      again.setCurrentKey(key);
      assertThat(table.get()).isEqualTo(ordersAndPayments(key));
    }
  }

  @Test
  void when_aSideTypeGainedAFieldSinceTheCheckpoint_then_itsRecordsRestoreWithTheDefault() {
    // given: windows written while payments had no currency
    byte[] written = TYPED.serialize(ordersAndPayments(4));
    byte[] writtenSchema = ((EvolvingSerializer<Object>) TYPED).schema();
    EvolvingSerializer<Object> later =
        (EvolvingSerializer<Object>)
            WindowContentsSerializer.of(
                AccumulatedTypes.of(
                    null, null, join(Order.class, PaymentWithCurrency.class), "orders-payments"));

    // when
    Map<Object, Object> restored =
        (Map<Object, Object>) later.readerOf(writtenSchema).deserialize(written);

    // then
    assertThat((List<Object>) restored.get(FIRST))
        .containsExactly(
            TaggedUnion.ofFirst(new Order(4, "customer-4")),
            TaggedUnion.ofSecond(new PaymentWithCurrency(4, 400, null)),
            TaggedUnion.ofFirst(new Order(40, "customer-40")));
  }

  private static <A, B> WindowJoin.PairsInWindow<A, B, Long, String> join(
      Class<A> first, Class<B> second) {
    return new WindowJoin.PairsInWindow<>((a, b) -> a + "-" + b, first, second);
  }

  /** Two windows of one key: orders and payments interleaved, as they arrived. */
  private static Map<TimeWindow, Object> ordersAndPayments(long key) {
    ArrayList<Object> firstWindow = new ArrayList<>();
    firstWindow.add(TaggedUnion.ofFirst(new Order(key, "customer-" + key)));
    firstWindow.add(TaggedUnion.ofSecond(new Payment(key, key * 100)));
    firstWindow.add(TaggedUnion.ofFirst(new Order(key * 10, "customer-" + key * 10)));
    ArrayList<Object> secondWindow = new ArrayList<>();
    secondWindow.add(TaggedUnion.ofSecond(new Payment(key * 10, 5)));
    Map<TimeWindow, Object> windows = new HashMap<>();
    windows.put(FIRST, firstWindow);
    windows.put(SECOND, secondWindow);
    return windows;
  }

  /** How many Java serialization streams (magic 0xACED, version 5) the bytes hold. */
  private static int javaSerializationStreamsIn(byte[] bytes) {
    int streams = 0;
    for (int index = 0; index + 3 < bytes.length; index++) {
      if (bytes[index] == (byte) 0xAC
          && bytes[index + 1] == (byte) 0xED
          && bytes[index + 2] == 0
          && bytes[index + 3] == 5) {
        streams++;
      }
    }
    return streams;
  }
}
