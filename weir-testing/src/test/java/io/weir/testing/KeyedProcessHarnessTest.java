package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedProcessHarnessTest {
  private static OperatorTestHarness<String, String> open(int parallelism) throws Exception {
    return OperatorHarnesses.forKeyedProcess((String word) -> word, new WordCountUntilQuiet())
        .parallelism(parallelism)
        .open();
  }

  @Test
  void when_watermarkPassesATimer_then_countOfTheKeyIsEmitted() throws Exception {
    // given
    try (OperatorTestHarness<String, String> harness = open(1)) {
      harness.processElement("apple", 100).processElement("apple", 105);
      harness.processElement("pear", 200);
      // when
      harness.processWatermark(114);
      // then: apple's timer moved to 115, so nothing yet
      assertThat(harness.output()).isEmpty();
      harness.processWatermark(115);
      assertThat(harness.output()).containsExactly("apple=2");
      harness.processWatermark(1_000);
      assertThat(harness.output()).containsExactly("apple=2", "pear=1");
    }
  }

  @Test
  void when_processingTimePassesATimer_then_itFiresOnceInTimeOrder() throws Exception {
    // given
    try (OperatorTestHarness<String, String> harness = open(1)) {
      harness.processElement("apple", 100);
      harness.setProcessingTime(50);
      harness.processElement("pear", 100);
      // when
      harness.setProcessingTime(149);
      // then
      assertThat(harness.sideOutput(WordCountUntilQuiet.SLOW)).containsExactly("apple is slow");
      harness.setProcessingTime(1_000);
      assertThat(harness.sideOutput(WordCountUntilQuiet.SLOW))
          .containsExactly("apple is slow", "pear is slow");
    }
  }

  @Test
  void when_restoredAfterCrash_then_stateAndTimersComeBack() throws Exception {
    // given
    OperatorTestHarness<String, String> harness = open(1);
    harness.processElement("apple", 100).processElement("apple", 101);
    OperatorSnapshot snapshot = harness.snapshot();
    harness.processElement("apple", 102);
    // when
    harness.crash();
    harness.restore(snapshot);
    harness.processWatermark(1_000);
    // then: the record after the snapshot is gone, as a source would send it again
    assertThat(harness.output()).containsExactly("apple=2");
    harness.close();
  }

  @Test
  void when_restoredAtAnotherParallelism_then_eachKeyKeepsItsStateAndTimers() throws Exception {
    // given: ten words counted by one subtask
    OperatorTestHarness<String, String> harness = open(1);
    List<String> words = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");
    for (String word : words) {
      harness.processElement(word, 100).processElement(word, 100);
    }
    OperatorSnapshot snapshot = harness.snapshot();
    // when: scaled out to three, one more record each, then back in to two
    harness.restore(snapshot, 3);
    for (String word : words) {
      harness.processElement(word, 100);
    }
    harness.restore(harness.snapshot(), 2);
    harness.processWatermark(1_000);
    // then
    assertThat(harness.parallelism()).isEqualTo(2);
    assertThat(harness.output())
        .containsExactlyInAnyOrderElementsOf(words.stream().map(word -> word + "=3").toList());
    harness.close();
  }
}
