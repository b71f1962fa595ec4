package io.weir.runtime.checkpoint.assignment;

import static io.weir.runtime.checkpoint.assignment.States.checkpointed;
import static io.weir.runtime.checkpoint.assignment.States.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class StateAssignmentPropertiesTest {

  /** An old parallelism, a new one, a max parallelism fitting both, and list sizes. */
  record Rescale(int oldParallelism, int newParallelism, int maxParallelism, int[] listSizes) {}

  @Property(tries = 500)
  void when_rescaled_then_everyKeyGroupLandsOnceInItsNewRange(@ForAll("rescales") Rescale rescale) {
    List<OperatorSubtaskState> assigned = assign(rescale);

    List<Integer> seen = new ArrayList<>();
    for (int subtask = 0; subtask < assigned.size(); subtask++) {
      KeyGroupRange range =
          KeyGroups.rangeOf(subtask, rescale.maxParallelism(), rescale.newParallelism());
      for (var keyGroup : assigned.get(subtask).keyGroups().entrySet()) {
        assertThat(range.contains(keyGroup.getKey())).isTrue();
        assertThat(States.text(keyGroup.getValue())).isEqualTo("kg-" + keyGroup.getKey());
        seen.add(keyGroup.getKey());
      }
      assertThat(assigned.get(subtask).keyGroups()).hasSize(range.size());
    }
    assertThat(seen).hasSize(rescale.maxParallelism()).doesNotHaveDuplicates();
  }

  @Property(tries = 500)
  void when_rescaled_then_everyListElementLandsExactlyOnceInOrder(
      @ForAll("rescales") Rescale rescale) {
    List<OperatorSubtaskState> assigned = assign(rescale);

    List<String> restored = new ArrayList<>();
    List<Integer> shareSizes = new ArrayList<>();
    for (OperatorSubtaskState state : assigned) {
      List<String> share = texts(state.listStates().getOrDefault("offsets", List.of()));
      restored.addAll(share);
      shareSizes.add(share.size());
    }

    assertThat(restored).containsExactlyElementsOf(allElements(rescale));
    if (rescale.oldParallelism() != rescale.newParallelism()) {
      int smallest = shareSizes.stream().mapToInt(Integer::intValue).min().orElseThrow();
      int largest = shareSizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
      assertThat(largest - smallest).isLessThanOrEqualTo(1);
    }
  }

  @Property(tries = 300)
  void when_rescaled_then_everySubtaskGetsTheWholeUnionList(@ForAll("rescales") Rescale rescale) {
    List<String> expected = new ArrayList<>();
    for (int subtask = 0; subtask < rescale.oldParallelism(); subtask++) {
      expected.add("u" + subtask);
    }

    for (OperatorSubtaskState state : assign(rescale)) {
      assertThat(texts(state.unionStates().get("context"))).containsExactlyElementsOf(expected);
    }
  }

  @Property(tries = 200)
  void when_parallelismUnchanged_then_subtasksGetTheirOwnListsBack(
      @ForAll("rescales") Rescale rescale) {
    Rescale same =
        new Rescale(
            rescale.oldParallelism(),
            rescale.oldParallelism(),
            rescale.maxParallelism(),
            rescale.listSizes());
    OperatorState restored = restoredState(same);

    List<OperatorSubtaskState> assigned = assign(same);

    for (int subtask = 0; subtask < same.oldParallelism(); subtask++) {
      assertThat(texts(assigned.get(subtask).listStates().get("offsets")))
          .containsExactlyElementsOf(
              texts(restored.subtasks().get(subtask).listStates().get("offsets")));
    }
  }

  @Provide
  Arbitrary<Rescale> rescales() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 8))
        .flatAs(
            (oldParallelism, newParallelism) ->
                Combinators.combine(
                        Arbitraries.integers()
                            .between(Math.max(oldParallelism, newParallelism), 128),
                        Arbitraries.integers()
                            .between(0, 12)
                            .array(int[].class)
                            .ofSize(oldParallelism))
                    .as(
                        (maxParallelism, listSizes) ->
                            new Rescale(
                                oldParallelism, newParallelism, maxParallelism, listSizes)));
  }

  private static OperatorState restoredState(Rescale rescale) {
    return checkpointed(
        "operator", rescale.oldParallelism(), rescale.maxParallelism(), rescale.listSizes());
  }

  private static List<OperatorSubtaskState> assign(Rescale rescale) {
    OperatorInfo operator =
        new OperatorInfo(
            "operator", "Operator", rescale.newParallelism(), rescale.maxParallelism());
    List<OperatorSubtaskState> assigned =
        StateAssignment.assignOperatorState(operator, restoredState(rescale));
    assertThat(assigned).hasSize(rescale.newParallelism());
    return assigned;
  }

  private static List<String> allElements(Rescale rescale) {
    List<String> elements = new ArrayList<>();
    for (int subtask = 0; subtask < rescale.oldParallelism(); subtask++) {
      for (int n = 0; n < rescale.listSizes()[subtask]; n++) {
        elements.add("s" + subtask + "-" + n);
      }
    }
    return elements;
  }
}
