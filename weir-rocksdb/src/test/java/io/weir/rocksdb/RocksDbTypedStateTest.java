package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** States declared with a type in RocksDB, restored by a version of the job whose type changed. */
class RocksDbTypedStateTest {
  private static final int KEYS = 500;

  /** Not serializable: only the type serializer can write it. */
  record Visit(String page, int seconds) {}

  record VisitWithReferrer(String page, int seconds, String referrer) {}

  record SecondsOnly(int seconds) {}

  record VisitWithTextSeconds(String page, String seconds) {}

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  private static ValueStateDescriptor<Visit> last() {
    return new ValueStateDescriptor<>("last", TypeSerializer.of(Visit.class));
  }

  /** Every key's last visit, its visit list and its by-page map, in v1's type; checkpoint 1. */
  private Map<Integer, byte[]> writeVersionOne(TestBackends backends) throws Exception {
    try (KeyedStateBackend backend = backends.backend(0, 1, OperatorSubtaskState.EMPTY)) {
      var lastVisit = backend.getState(last());
      var visits =
          backend.getListState(new ListStateDescriptor<>("visits", TypeSerializer.of(Visit.class)));
      var byPage =
          backend.getMapState(
              new MapStateDescriptor<>(
                  "byPage", TypeSerializer.of(String.class), TypeSerializer.of(Visit.class)));
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        lastVisit.update(new Visit("/page/" + key, (int) key));
        visits.add(new Visit("/home", 1));
        visits.add(new Visit("/page/" + key, (int) key));
        byPage.put("/home", new Visit("/home", 1));
      }
      return TestBackends.checkpoint(backend, 1);
    }
  }

  @Test
  void when_restoredWithAFieldAdded_then_everyValueHasItsDefaultAndTheNextRestoreReadsTheNewType()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "visits");
    Map<Integer, byte[]> first = writeVersionOne(backends);

    // when: v2 declares the states with a field added, and takes checkpoint 2
    Map<Integer, byte[]> second;
    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      var lastVisit =
          backend.getState(
              new ValueStateDescriptor<>("last", TypeSerializer.of(VisitWithReferrer.class)));
      var visits =
          backend.getListState(
              new ListStateDescriptor<>("visits", TypeSerializer.of(VisitWithReferrer.class)));
      var byPage =
          backend.getMapState(
              new MapStateDescriptor<>(
                  "byPage",
                  TypeSerializer.of(String.class),
                  TypeSerializer.of(VisitWithReferrer.class)));

      // then: every key reads back in the new type, the added field null
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        assertThat(lastVisit.value())
            .isEqualTo(new VisitWithReferrer("/page/" + key, (int) key, null));
        assertThat(visits.get())
            .containsExactly(
                new VisitWithReferrer("/home", 1, null),
                new VisitWithReferrer("/page/" + key, (int) key, null));
        assertThat(byPage.get("/home")).isEqualTo(new VisitWithReferrer("/home", 1, null));
        lastVisit.update(new VisitWithReferrer("/page/" + key, (int) key, "search"));
      }
      second = TestBackends.checkpoint(backend, 2);
    }

    // and then: a field removed from checkpoint 2's type is dropped
    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(second, 2))) {
      var seconds =
          backend.getState(
              new ValueStateDescriptor<>("last", TypeSerializer.of(SecondsOnly.class)));
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        assertThat(seconds.value()).isEqualTo(new SecondsOnly((int) key));
      }
    }
  }

  @Test
  void when_restoredWithAFieldOfAnotherType_then_theRestoreFailsForGoodNamingStateOperatorField()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "visits");
    Map<Integer, byte[]> first = writeVersionOne(backends);

    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      assertThatThrownBy(
              () ->
                  backend.getState(
                      new ValueStateDescriptor<>(
                          "last", TypeSerializer.of(VisitWithTextSeconds.class))))
          .isInstanceOf(SuppressRestartsException.class)
          .hasMessage(
              "Cannot restore state 'last' of operator 'visits': field 'seconds' changed type"
                  + " from int to String");
    }
  }

  @Test
  void when_aTypedStateIsDeclaredWithoutItsType_then_theRestoreSaysToDeclareIt() throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "visits");
    Map<Integer, byte[]> first = writeVersionOne(backends);

    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      assertThatThrownBy(() -> backend.getState(new ValueStateDescriptor<>("last")))
          .isInstanceOf(SuppressRestartsException.class)
          .hasMessage(
              "State 'last' of operator 'visits' was written with a TypeSerializer; declare it"
                  + " with one to restore it");
    }
  }
}
