package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.StateBackend;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A keyed broadcast process function against a plain-loop reference on seeded random scripts: with
 * a snapshot and restore after every input at parallelism 2, and across rescales from 2 to 3 and
 * from 3 to 1, where every new subtask must get the broadcast state.
 */
class BroadcastHarnessTest {
  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> backendsAndSeeds() {
    return TwoInputHarnessTest.backendsAndSeeds();
  }

  private static TwoInputOperatorTestHarness<String, String, String> open(
      StateBackend backend, int parallelism, boolean restoreAfterEveryInput) throws Exception {
    TwoInputHarnessBuilder<String, String, String> builder =
        OperatorHarnesses.forKeyedBroadcastProcess(
                TwoInputEvents::key, new LimitPerKey(), LimitPerKey.RULES)
            .parallelism(parallelism)
            .stateBackend(backend);
    if (restoreAfterEveryInput) {
      builder.restoreAfterEveryInput();
    }
    return builder.open();
  }

  @ParameterizedTest(name = "{0}, seed {2}")
  @MethodSource("backendsAndSeeds")
  void when_restoredAfterEveryInput_then_everySubtaskAppliesTheBroadcastRule(
      String name, StateBackend backend, long seed) throws Exception {
    // given
    List<TwoInputEvents.Event> events = TwoInputEvents.random(seed, 160, 5, 20);
    try (TwoInputOperatorTestHarness<String, String, String> harness = open(backend, 2, true)) {
      // when
      LimitPerKey.feed(harness, events);
      // then
      List<String> expected = LimitPerKey.reference(events);
      assertThat(expected).isNotEmpty();
      assertThat(harness.output()).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  @ParameterizedTest(name = "{0}, seed {2}")
  @MethodSource("backendsAndSeeds")
  void when_rescaledUpAndDown_then_everyNewSubtaskHasTheBroadcastState(
      String name, StateBackend backend, long seed) throws Exception {
    // given: a third of the script at parallelism 2
    List<TwoInputEvents.Event> events = TwoInputEvents.random(seed, 1_200, 20, 20);
    int third = events.size() / 3;
    TwoInputOperatorTestHarness<String, String, String> harness = open(backend, 2, false);
    LimitPerKey.feed(harness, events.subList(0, third));

    // when: restored at 3, fed the next third, restored at 1, fed the rest
    OperatorSnapshot atTwo = harness.snapshot();
    harness.crash();
    harness.restore(atTwo, 3);
    LimitPerKey.feed(harness, events.subList(third, 2 * third));
    OperatorSnapshot atThree = harness.snapshot();
    harness.crash();
    harness.restore(atThree, 1);
    LimitPerKey.feed(harness, events.subList(2 * third, events.size()));

    // then
    assertThat(harness.output()).containsExactlyInAnyOrderElementsOf(LimitPerKey.reference(events));
    harness.close();
  }
}
