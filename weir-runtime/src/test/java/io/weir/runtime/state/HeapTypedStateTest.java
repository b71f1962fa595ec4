package io.weir.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Keyed states declared with a type, through a heap snapshot and restore. */
class HeapTypedStateTest {
  private static final int MAX_PARALLELISM = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM - 1);

  /** Not serializable: only the type serializer can write it. */
  record Visit(String page, int seconds) {}

  record VisitWithReferrer(String page, int seconds, String referrer) {}

  record VisitWithTextSeconds(String page, String seconds) {}

  private static HeapKeyedStateBackend backend(OperatorSubtaskState restored) {
    return new HeapKeyedStateBackend("visits", ALL, MAX_PARALLELISM, restored);
  }

  private static OperatorSubtaskState snapshotOf(HeapKeyedStateBackend backend) {
    return new OperatorSubtaskState(Map.of(), Map.of(), backend.snapshot(1));
  }

  @Test
  void when_typedListAndMapStatesAreRestored_then_aNewerTypeReadsThemWithDefaults() {
    // given: list and map states of a record that is not serializable
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    ListState<Visit> visits =
        first.getListState(new ListStateDescriptor<>("visits", TypeSerializer.of(Visit.class)));
    MapState<String, Visit> latest =
        first.getMapState(
            new MapStateDescriptor<>(
                "latest", TypeSerializer.of(String.class), TypeSerializer.of(Visit.class)));
    for (String user : new String[] {"ada", "bob"}) {
      first.setCurrentKey(user);
      visits.add(new Visit("/home", 3));
      visits.add(new Visit("/cart", 9));
      latest.put("cart", new Visit("/cart", 9));
    }

    // when: a backend restores the snapshot with a type that gained a field
    HeapKeyedStateBackend second = backend(snapshotOf(first));
    ListState<VisitWithReferrer> restoredVisits =
        second.getListState(
            new ListStateDescriptor<>("visits", TypeSerializer.of(VisitWithReferrer.class)));
    MapState<String, VisitWithReferrer> restoredLatest =
        second.getMapState(
            new MapStateDescriptor<>(
                "latest",
                TypeSerializer.of(String.class),
                TypeSerializer.of(VisitWithReferrer.class)));

    // then: every key's values are there, the new field at its default
    for (String user : new String[] {"ada", "bob"}) {
      second.setCurrentKey(user);
      assertThat(restoredVisits.get())
          .containsExactly(
              new VisitWithReferrer("/home", 3, null), new VisitWithReferrer("/cart", 9, null));
      assertThat(restoredLatest.get("cart")).isEqualTo(new VisitWithReferrer("/cart", 9, null));
    }
  }

  @Test
  void when_aStateIsNotDeclaredBeforeTheNextSnapshot_then_itsRestoredBytesAreKept() {
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    ValueState<Visit> last =
        first.getState(new ValueStateDescriptor<>("last", TypeSerializer.of(Visit.class)));
    first.setCurrentKey("ada");
    last.update(new Visit("/home", 3));

    HeapKeyedStateBackend untouched = backend(snapshotOf(first));
    HeapKeyedStateBackend third = backend(snapshotOf(untouched));

    third.setCurrentKey("ada");
    assertThat(
            third
                .getState(new ValueStateDescriptor<>("last", TypeSerializer.of(Visit.class)))
                .value())
        .isEqualTo(new Visit("/home", 3));
  }

  @Test
  void when_aFieldChangedType_then_theRestoreFailsForGoodNamingStateOperatorAndField() {
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    ValueState<Visit> last =
        first.getState(new ValueStateDescriptor<>("last", TypeSerializer.of(Visit.class)));
    first.setCurrentKey("ada");
    last.update(new Visit("/home", 3));
    HeapKeyedStateBackend second = backend(snapshotOf(first));

    assertThatThrownBy(
            () ->
                second.getState(
                    new ValueStateDescriptor<>(
                        "last", TypeSerializer.of(VisitWithTextSeconds.class))))
        .isInstanceOf(SuppressRestartsException.class)
        .hasMessage(
            "Cannot restore state 'last' of operator 'visits': field 'seconds' changed type from"
                + " int to String");
  }

  @Test
  void when_aTypedStateIsDeclaredWithoutItsType_then_theRestoreSaysToDeclareIt() {
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    ValueState<Visit> last =
        first.getState(new ValueStateDescriptor<>("last", TypeSerializer.of(Visit.class)));
    first.setCurrentKey("ada");
    last.update(new Visit("/home", 3));
    HeapKeyedStateBackend second = backend(snapshotOf(first));

    assertThatThrownBy(() -> second.getState(new ValueStateDescriptor<>("last")))
        .isInstanceOf(SuppressRestartsException.class)
        .hasMessage(
            "State 'last' of operator 'visits' was written with a TypeSerializer; declare it with"
                + " one to restore it");
  }
}
