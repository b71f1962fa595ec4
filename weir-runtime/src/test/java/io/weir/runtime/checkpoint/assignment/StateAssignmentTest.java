package io.weir.runtime.checkpoint.assignment;

import static io.weir.runtime.checkpoint.assignment.States.checkpointed;
import static io.weir.runtime.checkpoint.assignment.States.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StateAssignmentTest {

  @Test
  void when_parallelismUnchanged_then_eachSubtaskGetsBackExactlyItsOwnState() {
    OperatorState restored = checkpointed("source", 2, 8, new int[] {3, 1});

    List<OperatorSubtaskState> assigned =
        StateAssignment.assignOperatorState(new OperatorInfo("source", "Source", 2, 8), restored);

    assertThat(texts(assigned.get(0).listStates().get("offsets")))
        .containsExactly("s0-0", "s0-1", "s0-2");
    assertThat(texts(assigned.get(1).listStates().get("offsets"))).containsExactly("s1-0");
    assertThat(assigned.get(0).keyGroups()).containsOnlyKeys(0, 1, 2, 3);
    assertThat(assigned.get(1).keyGroups()).containsOnlyKeys(4, 5, 6, 7);
  }

  @Test
  void when_scaledFromTwoToThree_then_listsSplitEvenlyInOrderAndKeyGroupsFollowTheirRanges() {
    OperatorState restored = checkpointed("map", 2, 6, new int[] {4, 3});

    List<OperatorSubtaskState> assigned =
        StateAssignment.assignOperatorState(new OperatorInfo("map", "Map", 3, 6), restored);

    assertThat(assigned)
        .extracting(state -> texts(state.listStates().get("offsets")))
        .containsExactly(
            List.of("s0-0", "s0-1"), List.of("s0-2", "s0-3"), List.of("s1-0", "s1-1", "s1-2"));
    assertThat(assigned)
        .extracting(state -> state.keyGroups().keySet())
        .containsExactly(java.util.Set.of(0, 1), java.util.Set.of(2, 3), java.util.Set.of(4, 5));
    assertThat(States.text(assigned.get(2).keyGroups().get(5))).isEqualTo("kg-5");
  }

  @Test
  void when_recordsInFlightAndParallelismChanged_then_everyNewSubtaskGetsAllOfThemByOldSubtask() {
    OperatorSubtaskState withRecordsInFlight =
        new OperatorSubtaskState(
            Map.of(
                InFlightRecords.STATE_PREFIX + "channel-0-of-1",
                List.of(new byte[] {1}),
                "offsets",
                List.of(new byte[] {2}, new byte[] {3})),
            Map.of(),
            Map.of());
    OperatorState restored =
        new OperatorState(
            new OperatorInfo("counter", "Counter", 2, 128),
            Map.of(0, withRecordsInFlight, 1, OperatorSubtaskState.EMPTY));

    List<OperatorSubtaskState> assigned =
        StateAssignment.assignOperatorState(
            new OperatorInfo("counter", "Counter", 3, 128), restored);

    String rescaled = InFlightRecords.STATE_PREFIX + "rescaled.subtask-0.channel-0-of-1";
    assertThat(assigned).allSatisfy(state -> assertThat(state.listStates()).containsKey(rescaled));
    assertThat(assigned)
        .extracting(state -> state.listStates().getOrDefault("offsets", List.of()).size())
        .containsExactly(0, 1, 1);
  }

  @Test
  void when_scaledDown_then_everySubtaskGetsTheWholeUnionList() {
    OperatorState restored = checkpointed("sink", 3, 128, new int[] {0, 0, 0});

    List<OperatorSubtaskState> assigned =
        StateAssignment.assignOperatorState(new OperatorInfo("sink", "Sink", 2, 128), restored);

    for (OperatorSubtaskState state : assigned) {
      assertThat(texts(state.unionStates().get("context"))).containsExactly("u0", "u1", "u2");
    }
  }

  @Test
  void when_moreSubtasksThanListElements_then_extraSubtasksGetNoShare() {
    OperatorState restored = checkpointed("source", 1, 4, new int[] {1});

    List<OperatorSubtaskState> assigned =
        StateAssignment.assignOperatorState(new OperatorInfo("source", "Source", 3, 4), restored);

    assertThat(assigned)
        .extracting(state -> state.listStates().containsKey("offsets"))
        .containsExactly(false, false, true);
  }

  @Test
  void when_operatorAbsentFromCheckpoint_then_everySubtaskStartsEmpty() {
    CompletedCheckpoint checkpoint = new CompletedCheckpoint(1, 1, "job", false, null, Map.of());

    List<OperatorSubtaskState> assigned =
        StateAssignment.assign(new OperatorInfo("new-operator", "New", 3, 128), checkpoint);

    assertThat(assigned)
        .containsExactly(
            OperatorSubtaskState.EMPTY, OperatorSubtaskState.EMPTY, OperatorSubtaskState.EMPTY);
  }

  @Test
  void when_maxParallelismChanged_then_restoreIsRefusedNamingTheOperator() {
    OperatorState restored = checkpointed("counts", 2, 128, new int[] {0, 0});

    assertThatThrownBy(
            () ->
                StateAssignment.assignOperatorState(
                    new OperatorInfo("counts", "Counts", 2, 256), restored))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "operator counts was checkpointed with max parallelism 128 but the job declares 256;"
                + " max parallelism cannot change across a restore");
  }

  @Test
  void when_parallelismAboveMaxParallelism_then_refused() {
    assertThatThrownBy(
            () ->
                StateAssignment.assignOperatorState(
                    new OperatorInfo("counts", "Counts", 9, 8), null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("operator counts has parallelism 9");
  }
}
