package io.weir.testing.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.TaggedUnion;
import io.weir.api.datastream.WindowJoin;
import io.weir.api.functions.JoinFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.testing.OperatorHarnesses;
import io.weir.testing.OperatorSnapshot;
import io.weir.testing.OperatorTestHarness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The window of a window join pairs both sides' records of a key and window exactly once, on both
 * backends, restored after every input and rescaled, against a nested loop per window.
 */
class WindowJoinTest {
  private static final long SIZE = 20;

  /** Joins an order and a payment of one user into "order-payment", by their unique values. */
  private static final class OrderAndPayment implements JoinFunction<Click, Click, String> {
    @Override
    public String join(Click order, Click payment) {
      return order.user() + ":" + order.value() + "-" + payment.value();
    }
  }

  /** Random clicks split into orders (even positions) and payments, each valued by its position. */
  record Sides(List<Click> all, List<Boolean> isOrder, List<Long> watermarkAfter) {
    static Sides random(long seed) {
      ClickStream stream = ClickStream.random(seed, 20, 3, 10, 6);
      List<Click> all = new ArrayList<>();
      List<Boolean> isOrder = new ArrayList<>();
      for (int index = 0; index < stream.clicks().size(); index++) {
        Click click = stream.clicks().get(index);
        all.add(new Click(click.user(), click.time(), index));
        isOrder.add(index % 2 == 0);
      }
      return new Sides(all, isOrder, stream.watermarkAfter());
    }

    TaggedUnion<Click, Click> tagged(int index) {
      return isOrder.get(index)
          ? TaggedUnion.ofFirst(all.get(index))
          : TaggedUnion.ofSecond(all.get(index));
    }

    /** Every pair of one user's order and payment in the same window: a nested loop. */
    List<String> expectedPairs() {
      List<String> pairs = new ArrayList<>();
      for (int order = 0; order < all.size(); order++) {
        for (int payment = 0; payment < all.size(); payment++) {
          Click first = all.get(order);
          Click second = all.get(payment);
          if (isOrder.get(order)
              && !isOrder.get(payment)
              && first.user().equals(second.user())
              && Math.floorDiv(first.time(), SIZE) == Math.floorDiv(second.time(), SIZE)) {
            pairs.add(new OrderAndPayment().join(first, second));
          }
        }
      }
      return pairs;
    }
  }

  private static OperatorTestHarness<TaggedUnion<Click, Click>, String> open(
      String backend, int parallelism, boolean restoreEveryInput) throws Exception {
    OperatorSpec.Window spec =
        new OperatorSpec.Window(
            TumblingEventTimeWindows.of(Duration.ofMillis(SIZE)),
            null,
            null,
            new WindowJoin.PairsInWindow<Click, Click, String, String>(new OrderAndPayment()),
            0,
            null);
    var builder =
        OperatorHarnesses.<TaggedUnion<Click, Click>, String>forOperator(spec)
            .keyBy(new WindowJoin.KeyOfEither<Click, Click, String>(Click::user, Click::user))
            .stateBackend(Harnesses.backend(backend))
            .parallelism(parallelism);
    return (restoreEveryInput ? builder.restoreAfterEveryInput() : builder).open();
  }

  private static void feed(
      OperatorTestHarness<TaggedUnion<Click, Click>, String> harness, Sides sides, int from, int to)
      throws Exception {
    for (int index = from; index < to; index++) {
      harness.processElement(sides.tagged(index), sides.all().get(index).time());
      if (sides.watermarkAfter().get(index) != null) {
        harness.processWatermark(sides.watermarkAfter().get(index));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_bothSidesArriveInWindows_then_everyPairIsJoinedOnce(String backend) throws Exception {
    // given
    Sides sides = Sides.random(41);
    try (var harness = open(backend, 2, true)) {
      // when
      feed(harness, sides, 0, sides.all().size());
      harness.processWatermark(Long.MAX_VALUE);
      // then
      assertThat(harness.output()).containsExactlyInAnyOrderElementsOf(sides.expectedPairs());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_joinWithOpenWindowsIsRestoredAtThreeSubtasksFromTwo_then_everyPairIsJoinedOnce(
      String backend) throws Exception {
    // given: half the input at parallelism 2, snapshotted with windows open
    Sides sides = Sides.random(42);
    int half = sides.all().size() / 2;
    var harness = open(backend, 2, false);
    feed(harness, sides, 0, half);
    OperatorSnapshot snapshot = harness.snapshot();
    List<String> before = new ArrayList<>(harness.output());
    harness.processElement(sides.tagged(half), sides.all().get(half).time());
    harness.clearOutput();
    // when: the snapshot restored at 3 takes the rest
    harness.restore(snapshot, 3);
    feed(harness, sides, half, sides.all().size());
    harness.processWatermark(Long.MAX_VALUE);
    // then
    List<String> all = new ArrayList<>(before);
    all.addAll(harness.output());
    assertThat(all).containsExactlyInAnyOrderElementsOf(sides.expectedPairs());
    harness.close();
  }
}
