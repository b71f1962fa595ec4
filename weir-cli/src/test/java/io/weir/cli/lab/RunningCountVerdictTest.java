package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.lab.OutputVerifier;
import io.weir.lab.RunningCountVerdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The running count's verdict by keyed state: counts 1..n once each for a word read n times. */
class RunningCountVerdictTest {

  @Test
  void when_everyCountIsCommittedOnce_then_exactlyOnce() {
    // given: a read 3 times, b once; counts 1..3 and 1 committed
    Map<String, Long> input = Map.of("a", 3L, "b", 1L);
    Map<String, Map<Long, Integer>> committed =
        Map.of("a", Map.of(1L, 1, 2L, 1, 3L, 1), "b", Map.of(1L, 1));

    // when
    OutputVerifier.Verdict verdict = RunningCountVerdict.compare(input, committed, 4, 4);

    // then
    assertThat(verdict.exactlyOnce()).isTrue();
  }

  @Test
  void when_stateWasLostOnRestore_then_lateCountsAreLostAndEarlyOnesDuplicated() {
    // given: a read 4 times; its count restarted from 0 after two records, so 1,2,1,2
    Map<String, Long> input = Map.of("a", 4L);
    Map<String, Map<Long, Integer>> committed = Map.of("a", Map.of(1L, 2, 2L, 2));

    // when
    OutputVerifier.Verdict verdict = RunningCountVerdict.compare(input, committed, 4, 4);

    // then: every id came out once, yet the state shows 2 lost and 2 duplicated
    assertThat(verdict.lost()).isEqualTo(2);
    assertThat(verdict.duplicated()).isEqualTo(2);
    assertThat(verdict.out()).isEqualTo(verdict.in() - verdict.lost() + verdict.duplicated());
  }

  @Test
  void when_aCountBeyondTheInputIsCommitted_then_itIsADuplicate() {
    // given: a read twice, but counts 1, 2 and 3 committed (a record counted twice)
    Map<String, Long> input = Map.of("a", 2L);
    Map<String, Map<Long, Integer>> committed = Map.of("a", Map.of(1L, 1, 2L, 1, 3L, 1));

    // when
    OutputVerifier.Verdict verdict = RunningCountVerdict.compare(input, committed, 2, 3);

    // then
    assertThat(verdict.lost()).isZero();
    assertThat(verdict.duplicated()).isEqualTo(1);
  }
}
