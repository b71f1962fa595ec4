package io.weir.runtime.checkpoint.storage;

import static io.weir.runtime.checkpoint.storage.Snapshots.expectedOperators;
import static io.weir.runtime.checkpoint.storage.Snapshots.readable;
import static io.weir.runtime.checkpoint.storage.Snapshots.storeAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryCheckpointStorageTest {

  @Test
  void when_checkpointCompleted_then_latestReturnsItsState() throws IOException {
    MemoryCheckpointStorage storage = new MemoryCheckpointStorage(1);
    storage.complete(storeAll(storage, 1, false));

    CompletedCheckpoint latest = storage.latest(new RecordingListener()).orElseThrow();

    assertThat(latest.checkpointId()).isEqualTo(1);
    assertThat(latest.location()).isNull();
    assertThat(readable(latest.operators())).isEqualTo(expectedOperators(1));
  }

  @Test
  void when_nothingCompleted_then_latestIsEmpty() throws IOException {
    MemoryCheckpointStorage storage = new MemoryCheckpointStorage(1);
    storeAll(storage, 1, false);

    assertThat(storage.latest(new RecordingListener())).isEmpty();
  }

  @Test
  void when_newerCheckpointDiscarded_then_latestStaysTheCompletedOne() throws IOException {
    MemoryCheckpointStorage storage = new MemoryCheckpointStorage(1);
    storage.complete(storeAll(storage, 1, false));
    storeAll(storage, 2, false);

    storage.discard(2);

    assertThat(storage.latest(new RecordingListener()).orElseThrow().checkpointId()).isEqualTo(1);
    assertThatThrownBy(() -> storage.complete(storeAllMetadataOnly(2)))
        .isInstanceOf(InvalidCheckpointException.class)
        .hasMessageContaining("no state stored for task");
  }

  @Test
  void when_stateChangesAfterStore_then_checkpointKeepsWhatWasStored() throws IOException {
    MemoryCheckpointStorage storage = new MemoryCheckpointStorage(1);
    byte[] element = Snapshots.bytes("offset-5");
    TaskSnapshot snapshot =
        new TaskSnapshot(
            Map.of(
                "source",
                new OperatorSubtaskState(Map.of("offsets", List.of(element)), Map.of(), Map.of())));
    StateHandle handle = storage.storeTaskState(1, "Source", 0, snapshot);
    element[0] = 'X';

    CompletedCheckpoint completed =
        storage.complete(
            new CheckpointMetadata(
                1,
                1,
                "job",
                false,
                List.of(Snapshots.OPERATORS.get(0)),
                List.of(new SubtaskStateHandle("Source", 0, handle)),
                0));

    byte[] stored =
        completed.operators().get("source").subtasks().get(0).listStates().get("offsets").get(0);
    assertThat(new String(stored, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("offset-5");
  }

  @Test
  void when_moreCompletedThanRetained_then_olderAreForgottenButSavepointsKept() throws IOException {
    MemoryCheckpointStorage storage = new MemoryCheckpointStorage(2);
    storage.complete(storeAll(storage, 1, true));
    for (long id = 2; id <= 5; id++) {
      storage.complete(storeAll(storage, id, false));
    }

    assertThat(storage.latest(new RecordingListener()).orElseThrow().checkpointId()).isEqualTo(5);
    assertThat(storage.retainedCheckpointIds()).containsExactly(1L, 4L, 5L);
  }

  private static CheckpointMetadata storeAllMetadataOnly(long checkpointId) throws IOException {
    return storeAll(new MemoryCheckpointStorage(1), checkpointId, false);
  }
}
