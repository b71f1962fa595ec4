package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.TaggedUnion;
import io.weir.api.datastream.WindowJoin;
import io.weir.api.windowing.TimeWindow;
import io.weir.runtime.operators.window.AccumulatedTypes;
import io.weir.runtime.operators.window.WindowContentsSerializer;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.OperatorSubtaskState;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window join's contents in RocksDB: written by the earlier code (its records by Java
 * serialization), restored by a job whose inputs declare their record classes, and restored again.
 */
class RocksDbJoinWindowContentsTest {
  private static final String CONTENTS = "window-contents";
  private static final int KEYS = 200;
  private static final TimeWindow WINDOW = new TimeWindow(0, 10);

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  record Person(long id, String name) implements Serializable {}

  record Auction(long id, long seller) implements Serializable {}

  @Test
  void when_joinContentsOfTheEarlierCodeAreRestoredTyped_then_everyKeysRecordsComeBackTwice()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "join");
    // given: checkpoint 1 by the earlier code, whose join did not know its inputs' types
    Map<Integer, byte[]> first;
    try (KeyedStateBackend backend = backends.backend(0, 1, OperatorSubtaskState.EMPTY)) {
      KeyedTable table = contents(backend, null, null);
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        table.put(personAndAuctions(key));
      }
      first = TestBackends.checkpoint(backend, 1);
    }

    // when: this version restores it, writes every key again (checkpoint 2) and restores that
    Map<Integer, byte[]> second;
    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      KeyedTable table = contents(backend, Person.class, Auction.class);
      assertEveryKey(backend, table);
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        table.put(table.get());
      }
      second = TestBackends.checkpoint(backend, 2);
    }

    // then
    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(second, 2))) {
      assertEveryKey(backend, contents(backend, Person.class, Auction.class));
    }
  }

  private static void assertEveryKey(KeyedStateBackend backend, KeyedTable table) {
    for (long key = 0; key < KEYS; key++) {
      backend.setCurrentKey(key);
      assertThat(table.get()).isEqualTo(personAndAuctions(key));
    }
  }

  private static KeyedTable contents(
      KeyedStateBackend backend, Class<Person> persons, Class<Auction> auctions) {
    WindowJoin.PairsInWindow<Person, Auction, Long, String> join =
        new WindowJoin.PairsInWindow<>((person, auction) -> person.name(), persons, auctions);
    return backend.table(
        CONTENTS, WindowContentsSerializer.of(AccumulatedTypes.of(null, null, join, "join")));
  }

  /** One window: an auction, the key's person, and a second auction, as they arrived. */
  private static Map<TimeWindow, Object> personAndAuctions(long key) {
    ArrayList<Object> records = new ArrayList<>();
    records.add(TaggedUnion.ofSecond(new Auction(2 * key, key)));
    records.add(TaggedUnion.ofFirst(new Person(key, "person-" + key)));
    records.add(TaggedUnion.ofSecond(new Auction(2 * key + 1, key)));
    Map<TimeWindow, Object> windows = new HashMap<>();
    windows.put(WINDOW, records);
    return windows;
  }
}
