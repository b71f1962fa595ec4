package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.StateSerializers;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** List state kept as appended frames: adds, replaces and clears, across checkpoints. */
class RocksDbListStateTest {
  private static final ListStateDescriptor<Long> EVENTS =
      new ListStateDescriptor<>("events", StateSerializers.longs());

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  @Test
  void when_elementsAreAddedAcrossFlushesAndACheckpoint_then_getReturnsThemInOrder()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "lists");
    Map<Integer, byte[]> checkpoint;
    List<Long> expected = new ArrayList<>();
    try (KeyedStateBackend backend = backends.backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // given: 20,000 adds to one key, some as batches, with a checkpoint (a flush) between
      backend.setCurrentKey("busy");
      ListState<Long> events = backend.getListState(EVENTS);
      for (long i = 0; i < 10_000; i++) {
        events.add(i);
        expected.add(i);
      }
      TestBackends.checkpoint(backend, 1);
      events.addAll(LongStream.range(10_000, 20_000).boxed().toList());
      expected.addAll(LongStream.range(10_000, 20_000).boxed().toList());
      assertThat(events.get()).isEqualTo(expected);
      checkpoint = TestBackends.checkpoint(backend, 2);
    }

    // when
    try (KeyedStateBackend restored = backends.backend(0, 1, backends.restored(checkpoint, 2))) {
      restored.setCurrentKey("busy");
      ListState<Long> events = restored.getListState(EVENTS);
      // then
      assertThat(events.get()).isEqualTo(expected);
      events.add(-1L);
      assertThat(events.get()).hasSize(20_001).endsWith(-1L);
    }
  }

  @Test
  void when_aListIsReplacedOrCleared_then_laterAddsStartFromThat() throws Exception {
    try (KeyedStateBackend backend =
        new TestBackends(jobDirectory, "lists").backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // given
      backend.setCurrentKey(7L);
      ListState<Long> events = backend.getListState(EVENTS);
      events.add(1L);
      events.add(2L);

      // when / then
      events.update(List.of(5L, 6L));
      events.add(7L);
      assertThat(events.get()).containsExactly(5L, 6L, 7L);
      events.clear();
      assertThat(events.get()).isEmpty();
      events.add(8L);
      assertThat(events.get()).containsExactly(8L);
      events.update(List.of());
      assertThat(events.get()).isEmpty();
      backend.setCurrentKey(8L);
      assertThat(events.get()).isEmpty();
    }
  }
}
