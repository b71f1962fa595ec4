package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.source.SourcePosition;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.checkpoint.explain.CheckpointContents;
import io.weir.runtime.checkpoint.explain.CheckpointExplanation;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The recovery view's explanation: what {@code weir inspect} says, then what the restore did. */
class RecoveryViewsTest {
  record TopicPartitionPosition(String topic, int partition, long offset)
      implements SourcePosition {
    @Override
    public String split() {
      return topic + "-" + partition;
    }

    @Override
    public long position() {
      return offset;
    }
  }

  @Test
  void when_restoredFromACheckpoint_then_theExplanationIsInspectsTextAndTheRestoresOutcome()
      throws Exception {
    // given: a checkpoint whose source subtasks kept two partitions' offsets, beside a union
    // state that holds no positions
    CompletedCheckpoint restored =
        new CompletedCheckpoint(
            7,
            1_700_000_000_000L,
            "seed",
            false,
            null,
            Map.of(
                "source",
                new OperatorState(
                    new OperatorInfo("source", "Source: Example Source", 2, 128),
                    Map.of(
                        0, positions(new TopicPartitionPosition("foo", 0, 40)),
                        1, positions(new TopicPartitionPosition("foo", 1, 2)))),
                "other",
                new OperatorState(
                    new OperatorInfo("other", "Map", 1, 128),
                    Map.of(
                        0,
                        new OperatorSubtaskState(
                            Map.of(),
                            Map.of("names", List.of(StateSerializer.java().serialize("a"))),
                            Map.of())))));
    List<RecoveryView.SinkTransaction> settled =
        List.of(
            new RecoveryView.SinkTransaction(
                "sink", "Sink: Example Sink", 7, "weir-seed-1-0", 12, "COMMITTED", "marker"));

    // when
    String explanation = RecoveryViews.explanation(restored, settled);

    // then: word for word what `weir inspect` prints for the checkpoint, then the restore
    String inspected = CheckpointExplanation.of(restored, CheckpointContents.of(restored));
    assertThat(explanation).startsWith(inspected + "\n");
    assertThat(inspected)
        .startsWith("checkpoint 7 of job 'seed', taken 2023-11-14T22:13:20Z")
        .contains("source offsets: {foo-0=40, foo-1=2} (total 42)");
    assertThat(explanation)
        .contains("pending transactions: 1 — committed by the restore: 1")
        .endsWith("outcome: exactly-once (a replayed commit of a committed transaction is normal)");
  }

  @Test
  void when_startedFresh_then_theExplanationSaysSo() {
    assertThat(RecoveryViews.explanation(null, List.of())).startsWith("A fresh start");
  }

  private static OperatorSubtaskState positions(SourcePosition position) {
    return new OperatorSubtaskState(
        Map.of(),
        Map.of("kafka-partition-offsets", List.of(StateSerializer.java().serialize(position))),
        Map.of());
  }
}
