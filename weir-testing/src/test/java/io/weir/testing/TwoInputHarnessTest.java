package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.CoMapFunction;
import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two-input operators against a reference computed by a plain loop over a seeded random script, on
 * the heap and on RocksDB, with a snapshot and restore after every input (at parallelism 2), and
 * across a rescale from 2 to 3 subtasks with keyed state and timers pending.
 */
class TwoInputHarnessTest {
  static Stream<Arguments> backendsAndSeeds() {
    return Stream.of(
        Arguments.of("heap", StateBackends.heap(), 1L),
        Arguments.of("heap", StateBackends.heap(), 2L),
        Arguments.of("rocksdb", StateBackends.rocksdb(), 3L));
  }

  @ParameterizedTest(name = "{0}, seed {2}")
  @MethodSource("backendsAndSeeds")
  void when_restoredAfterEveryInput_then_keyedCoProcessMatchesTheReference(
      String name, StateBackend backend, long seed) throws Exception {
    // given
    List<TwoInputEvents.Event> events = TwoInputEvents.random(seed, 160, 5, 20);
    try (TwoInputOperatorTestHarness<String, String, String> harness =
        OperatorHarnesses.forKeyedCoProcess(
                TwoInputEvents::key, TwoInputEvents::key, new RateEnricher())
            .parallelism(2)
            .stateBackend(backend)
            .restoreAfterEveryInput()
            .open()) {
      // when
      TwoInputEvents.feed(harness, events);
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(RateEnricher.reference(events));
    }
  }

  @ParameterizedTest(name = "{0}, seed {2}")
  @MethodSource("backendsAndSeeds")
  void when_restoredAfterEveryInput_then_intervalJoinMakesEveryPairOnce(
      String name, StateBackend backend, long seed) throws Exception {
    // given
    List<TwoInputEvents.Event> events = TwoInputEvents.random(seed, 160, 4, 20);
    try (TwoInputOperatorTestHarness<String, String, String> harness =
        OperatorHarnesses.forIntervalJoin(
                TwoInputEvents::key,
                TwoInputEvents::key,
                Duration.ofMillis(-5),
                Duration.ofMillis(10),
                new PairJoin())
            .parallelism(2)
            .stateBackend(backend)
            .restoreAfterEveryInput()
            .open()) {
      // when
      TwoInputEvents.feed(harness, events);
      // then
      List<String> expected = PairJoin.reference(events, -5, 10);
      assertThat(expected).isNotEmpty();
      assertThat(harness.output()).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @ParameterizedTest(name = "{0}, seed {2}")
  @MethodSource("backendsAndSeeds")
  void when_rescaledFromTwoToThree_then_pendingStateAndTimersMoveWithTheirKeys(
      String name, StateBackend backend, long seed) throws Exception {
    // given: half the script at parallelism 2, then a snapshot and a crash
    List<TwoInputEvents.Event> events = TwoInputEvents.random(seed, 2_000, 20, 20);
    List<TwoInputEvents.Event> joinEvents = TwoInputEvents.random(seed + 100, 2_000, 20, 20);
    TwoInputOperatorTestHarness<String, String, String> enrich =
        OperatorHarnesses.forKeyedCoProcess(
                TwoInputEvents::key, TwoInputEvents::key, new RateEnricher())
            .parallelism(2)
            .stateBackend(backend)
            .open();
    TwoInputOperatorTestHarness<String, String, String> join =
        OperatorHarnesses.forIntervalJoin(
                TwoInputEvents::key,
                TwoInputEvents::key,
                Duration.ZERO,
                Duration.ofMillis(15),
                new PairJoin())
            .parallelism(2)
            .stateBackend(backend)
            .open();
    int half = events.size() / 2;
    TwoInputEvents.feed(enrich, events.subList(0, half));
    TwoInputEvents.feed(join, joinEvents.subList(0, half));
    OperatorSnapshot enrichSnapshot = enrich.snapshot();
    OperatorSnapshot joinSnapshot = join.snapshot();
    enrich.crash();
    join.crash();

    // when: restored at 3 and fed the rest
    enrich.restore(enrichSnapshot, 3);
    join.restore(joinSnapshot, 3);
    TwoInputEvents.feed(enrich, events.subList(half, events.size()));
    TwoInputEvents.feed(join, joinEvents.subList(half, joinEvents.size()));

    // then
    assertThat(enrich.parallelism()).isEqualTo(3);
    assertThat(enrich.output()).containsExactlyInAnyOrderElementsOf(RateEnricher.reference(events));
    assertThat(join.output())
        .containsExactlyInAnyOrderElementsOf(PairJoin.reference(joinEvents, 0, 15));
    enrich.close();
    join.close();
  }

  @Test
  void when_coMapGetsBothInputs_then_eachGoesToItsOwnMethod() throws Exception {
    // given
    try (TwoInputOperatorTestHarness<String, Integer, String> harness =
        OperatorHarnesses.forCoMap(new Describe()).restoreAfterEveryInput().open()) {
      // when
      harness.processElement1("a", 1).processElement2(7, 2).processElement1("b", 3);
      // then
      assertThat(harness.outputWithTimestamps())
          .containsExactly(
              new Timestamped<>("text a", 1),
              new Timestamped<>("number 7", 2),
              new Timestamped<>("text b", 3));
    }
  }

  /** Says which input a record came from. */
  static final class Describe implements CoMapFunction<String, Integer, String> {
    @Override
    public String map1(String value) {
      return "text " + value;
    }

    @Override
    public String map2(Integer value) {
      return "number " + value;
    }
  }
}
