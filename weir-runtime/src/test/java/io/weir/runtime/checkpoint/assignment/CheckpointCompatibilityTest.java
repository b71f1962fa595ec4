package io.weir.runtime.checkpoint.assignment;

import static io.weir.runtime.checkpoint.assignment.States.checkpointed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointCompatibilityTest {
  private static final Path LOCATION = Path.of("checkpoints", "job", "chk-7");

  private final CompletedCheckpoint checkpoint =
      checkpointOf(
          checkpointed("source", 2, 128, new int[] {1, 1}),
          checkpointed("old-map", 2, 128, new int[] {1, 0}),
          checkpointed("old-sink", 2, 128, new int[] {0, 1}),
          new OperatorState(
              new OperatorInfo("stateless", "Filter", 2, 128),
              Map.of(0, OperatorSubtaskState.EMPTY, 1, OperatorSubtaskState.EMPTY)));

  @Test
  void when_everyStatefulOperatorExists_then_nothingIsLeftOver() {
    List<String> nonRestored =
        CheckpointCompatibility.check(
            checkpoint,
            List.of(operator("source"), operator("old-map"), operator("old-sink")),
            false);

    assertThat(nonRestored).isEmpty();
  }

  @Test
  void when_operatorsMissingFromJob_then_refusedListingThem() {
    assertThatThrownBy(
            () -> CheckpointCompatibility.check(checkpoint, List.of(operator("source")), false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "checkpoint 7 at "
                + LOCATION
                + " holds state of operators absent from the job:"
                + " [old-map, old-sink]; allow non-restored state to drop it");
  }

  @Test
  void when_nonRestoredStateAllowed_then_missingOperatorsAreReturned() {
    List<String> nonRestored =
        CheckpointCompatibility.check(checkpoint, List.of(operator("source")), true);

    assertThat(nonRestored).containsExactly("old-map", "old-sink");
  }

  @Test
  void when_maxParallelismChanged_then_refusedNamingTheOperator() {
    assertThatThrownBy(
            () ->
                CheckpointCompatibility.check(
                    checkpoint,
                    List.of(
                        new OperatorInfo("source", "Source", 2, 64),
                        operator("old-map"),
                        operator("old-sink")),
                    false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("operator source was checkpointed with max parallelism 128");
  }

  private static OperatorInfo operator(String uid) {
    return new OperatorInfo(uid, uid, 3, 128);
  }

  private static CompletedCheckpoint checkpointOf(OperatorState... operators) {
    Map<String, OperatorState> byUid = new LinkedHashMap<>();
    for (OperatorState operator : operators) {
      byUid.put(operator.operator().uid(), operator);
    }
    return new CompletedCheckpoint(7, 1_000, "job", false, LOCATION, byUid);
  }
}
