package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.windowing.TimeWindow;
import io.weir.runtime.operators.window.AccumulatedTypes;
import io.weir.runtime.operators.window.WindowContentsSerializer;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.OperatorSubtaskState;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window operator's contents in RocksDB, kept with its aggregate's typed serializer: restored
 * from a checkpoint, from a checkpoint that Java-serialized them, and by a job whose accumulator
 * changed.
 */
@SuppressWarnings("unchecked")
class RocksDbWindowContentsTest {
  private static final String CONTENTS = "window-contents";
  private static final int KEYS = 300;
  private static final TimeWindow FIRST = new TimeWindow(0, 10);
  private static final TimeWindow SECOND = new TimeWindow(10, 20);

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  /** A POJO accumulator, as a user writes one; serializable for the earlier format. */
  public static final class Totals implements Serializable {
    public long count;
    public long sum;
  }

  /** Totals with a field added in a later version of the job. */
  public static final class TotalsWithMaximum {
    public long count;
    public long sum;
    public long maximum = -1;
  }

  /** Totals whose count became text in a later version of the job. */
  public static final class TotalsWithTextCount {
    public String count;
    public long sum;
  }

  static final class SumOfTotals implements AggregateFunction<Long, Totals, Long> {
    @Override
    public Totals createAccumulator() {
      return new Totals();
    }

    @Override
    public Totals add(Long value, Totals totals) {
      totals.count++;
      totals.sum += value;
      return totals;
    }

    @Override
    public Long getResult(Totals totals) {
      return totals.sum;
    }

    @Override
    public Totals merge(Totals first, Totals second) {
      first.count += second.count;
      first.sum += second.sum;
      return first;
    }
  }

  /** The next version of the job's aggregate: it keeps the maximum too. */
  static final class SumWithMaximum
      implements AggregateFunction<Long, TotalsWithMaximum, TotalsWithMaximum> {
    @Override
    public TotalsWithMaximum createAccumulator() {
      return new TotalsWithMaximum();
    }

    @Override
    public TotalsWithMaximum add(Long value, TotalsWithMaximum totals) {
      totals.count++;
      totals.sum += value;
      totals.maximum = Math.max(totals.maximum, value);
      return totals;
    }

    @Override
    public TotalsWithMaximum getResult(TotalsWithMaximum totals) {
      return totals;
    }

    @Override
    public TotalsWithMaximum merge(TotalsWithMaximum first, TotalsWithMaximum second) {
      throw new UnsupportedOperationException("tumbling windows do not merge");
    }
  }

  /** A version of the job whose count became text: its windows cannot be read. */
  static final class SumWithTextCount
      implements AggregateFunction<Long, TotalsWithTextCount, TotalsWithTextCount> {
    @Override
    public TotalsWithTextCount createAccumulator() {
      return new TotalsWithTextCount();
    }

    @Override
    public TotalsWithTextCount add(Long value, TotalsWithTextCount totals) {
      totals.sum += value;
      return totals;
    }

    @Override
    public TotalsWithTextCount getResult(TotalsWithTextCount totals) {
      return totals;
    }

    @Override
    public TotalsWithTextCount merge(TotalsWithTextCount first, TotalsWithTextCount second) {
      throw new UnsupportedOperationException("tumbling windows do not merge");
    }
  }

  private static KeyedTable contents(
      KeyedStateBackend backend, AggregateFunction<?, ?, ?> aggregate) {
    return backend.table(
        CONTENTS, WindowContentsSerializer.of(AccumulatedTypes.of(null, aggregate, "sums")));
  }

  private static Totals totals(long count, long sum) {
    Totals totals = new Totals();
    totals.count = count;
    totals.sum = sum;
    return totals;
  }

  /** Two windows per key: counts key and 1, sums 10 * key and 7; checkpoint 1. */
  private static Map<Integer, byte[]> writeTwoWindowsPerKey(TestBackends backends, boolean typed)
      throws Exception {
    try (KeyedStateBackend backend = backends.backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // The earlier format: the whole map through the tagged default, by Java serialization.
      KeyedTable table = typed ? contents(backend, new SumOfTotals()) : backend.table(CONTENTS);
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        HashMap<TimeWindow, Object> windows = new HashMap<>();
        windows.put(FIRST, totals(key, 10 * key));
        windows.put(SECOND, totals(1, 7));
        table.put(windows);
      }
      return TestBackends.checkpoint(backend, 1);
    }
  }

  private static void assertTwoWindowsPerKey(KeyedStateBackend backend, KeyedTable table) {
    for (long key = 0; key < KEYS; key++) {
      backend.setCurrentKey(key);
      Map<Object, Object> windows = (Map<Object, Object>) table.get();
      assertThat(windows).containsOnlyKeys(FIRST, SECOND);
      assertThat(windows.get(FIRST)).usingRecursiveComparison().isEqualTo(totals(key, 10 * key));
      assertThat(windows.get(SECOND)).usingRecursiveComparison().isEqualTo(totals(1, 7));
    }
  }

  @Test
  void when_contentsWithAPojoAccumulatorAreRestored_then_everyKeysWindowsComeBackEqual()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "sums");
    Map<Integer, byte[]> first = writeTwoWindowsPerKey(backends, true);

    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      assertTwoWindowsPerKey(backend, contents(backend, new SumOfTotals()));
    }
  }

  @Test
  void when_restoredFromContentsWrittenByJavaSerialization_then_theyAreReadAndRewrittenTyped()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "sums");
    Map<Integer, byte[]> first = writeTwoWindowsPerKey(backends, false);

    // when: this version reads the earlier checkpoint and writes every key again (checkpoint 2)
    Map<Integer, byte[]> second;
    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      KeyedTable table = contents(backend, new SumOfTotals());
      assertTwoWindowsPerKey(backend, table);
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        table.put(table.get());
      }
      second = TestBackends.checkpoint(backend, 2);
    }

    // then: checkpoint 2 holds the same windows, in the typed format
    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(second, 2))) {
      assertTwoWindowsPerKey(backend, contents(backend, new SumOfTotals()));
    }
  }

  @Test
  void when_theAccumulatorGainedAField_then_theRestoreGivesItTheConstructorsValue()
      throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "sums");
    Map<Integer, byte[]> first = writeTwoWindowsPerKey(backends, true);

    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      KeyedTable table = contents(backend, new SumWithMaximum());
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        TotalsWithMaximum restored =
            (TotalsWithMaximum) ((Map<Object, Object>) table.get()).get(FIRST);
        assertThat(restored.count).isEqualTo(key);
        assertThat(restored.sum).isEqualTo(10 * key);
        assertThat(restored.maximum).isEqualTo(-1);
      }
    }
  }

  @Test
  void when_anAccumulatorFieldChangedType_then_theRestoreFailsForGoodInOneLine() throws Exception {
    TestBackends backends = new TestBackends(jobDirectory, "sums");
    Map<Integer, byte[]> first = writeTwoWindowsPerKey(backends, true);

    try (KeyedStateBackend backend = backends.backend(0, 1, backends.restored(first, 1))) {
      assertThatThrownBy(() -> contents(backend, new SumWithTextCount()))
          .isInstanceOf(SuppressRestartsException.class)
          .hasMessage(
              "Cannot restore state 'window-contents' of operator 'sums': field 'count' changed"
                  + " type from long to String");
    }
  }
}
