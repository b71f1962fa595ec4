package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.functions.RichMapFunction;
import io.weir.examples.SeedRecords;
import org.junit.jupiter.api.Test;

class RestoreAfterEveryInputTest {
  /** Numbers its records in a plain field, which no checkpoint keeps. */
  private static final class NumberingInAField extends RichMapFunction<String, String> {
    private static final long serialVersionUID = 1L;
    private transient long seen;

    @Override
    public String map(String value) {
      return value + "#" + seen++;
    }
  }

  @Test
  void when_functionKeepsEverythingInState_then_restoringAfterEveryInputChangesNothing()
      throws Exception {
    // given
    try (OperatorTestHarness<String, String> harness =
        OperatorHarnesses.forKeyedProcess((String word) -> word, new WordCountUntilQuiet())
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      harness.processElement("apple", 100).processElement("pear", 101);
      harness.processElement("apple", 103).setProcessingTime(500);
      harness.processWatermark(1_000);
      // then
      assertThat(harness.output()).containsExactlyInAnyOrder("apple=2", "pear=1");
      assertThat(harness.sideOutput(WordCountUntilQuiet.SLOW)).hasSize(2);
    }
  }

  @Test
  void when_seedMapIsRestoredAfterEveryRecord_then_itsOutputIsUnchanged() throws Exception {
    try (OperatorTestHarness<String, String> harness =
        OperatorHarnesses.forMap(SeedRecords::incrementFrequency)
            .keyBy(SeedRecords::word)
            .restoreAfterEveryInput()
            .open()) {
      for (int index = 0; index < 20; index++) {
        harness.processElement(SeedRecords.generate(index));
      }
      assertThat(harness.output()).hasSize(20);
    }
  }

  @Test
  void when_functionKeepsAFieldOutsideState_then_theFirstDifferenceFailsTheTest() throws Exception {
    // given
    OperatorTestHarness<String, String> harness =
        OperatorHarnesses.forMap(new NumberingInAField()).restoreAfterEveryInput().open();
    harness.processElement("a");
    // when / then: the restored copy numbers "b" from 0 again
    assertThatThrownBy(() -> harness.processElement("b"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("after input 2 (record b)")
        .hasMessageContaining("b#1")
        .hasMessageContaining("b#0");
  }
}
