package io.weir.lab.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The running count's committed output against a reference from its input, and its order. */
class RunningCountCheckTest {
  @Test
  void when_eachCountFollowsItsWordsInput_then_noCountIsOffAndNoOrderBroken() {
    // given: a and b in input partition 0, c in partition 1
    RunningCountCheck check = inputOf("0:a,5,1", "0:b,1,2", "0:a,3,3", "1:c,0,4", "0:a,7,5");

    // when: the counts come out spread over two output partitions, each key in order in each
    output(check, "0:a,1,1", "1:b,1,2", "1:a,2,3", "0:c,1,4", "0:a,3,5");

    // then
    assertThat(check.result()).isEqualTo(new RunningCountCheck.Result(0, 0));
  }

  @Test
  void when_aRestoredStateCountsARecordAgain_then_itsCountIsOff() {
    // given
    RunningCountCheck check = inputOf("0:a,5,1", "0:a,3,2", "0:a,7,3");

    // when: the state after record 1 was lost, so record 2 got count 1 again and record 3 count 2
    output(check, "0:a,1,1", "0:a,1,2", "0:a,2,3");

    // then: two counts off; the repeated count 1 also breaks the order
    assertThat(check.result()).isEqualTo(new RunningCountCheck.Result(2, 1));
  }

  @Test
  void when_aKeysRecordsCommitOutOfOrderInAPartition_then_theOrderIsBroken() {
    // given
    RunningCountCheck check = inputOf("0:a,5,1", "0:a,3,2", "0:a,7,3");

    // when: right counts, but count 3 committed before count 2 in one partition
    output(check, "0:a,1,1", "0:a,3,3", "0:a,2,2");

    // then
    assertThat(check.result()).isEqualTo(new RunningCountCheck.Result(0, 1));
  }

  @Test
  void when_aTableRowRepeatsAWordsCount_then_itsCountIsOff() {
    // given
    RunningCountCheck check = inputOf("0:a,5,1", "0:a,3,2", "1:b,7,3");

    // when: PostgreSQL's rows (id, count); record 2 was counted from a state that lost record 1
    check.row(1, 1);
    check.row(2, 1);
    check.row(3, 1);

    // then
    assertThat(check.result()).isEqualTo(new RunningCountCheck.Result(1, 0));
  }

  @Test
  void when_aWordIsInTwoInputPartitions_then_theCheckRefusesToGuessItsOrder() {
    RunningCountCheck check = inputOf("0:a,5,1");

    assertThatThrownBy(() -> check.input(1, "a,3,2"))
        .hasMessage(
            "word a is in input partitions 0 and 1: its running counts have no order to check"
                + " against");
  }

  private static RunningCountCheck inputOf(String... records) {
    RunningCountCheck check = new RunningCountCheck();
    for (String record : records) {
      check.input(partition(record), value(record));
    }
    return check;
  }

  private static void output(RunningCountCheck check, String... records) {
    for (String record : records) {
      check.output(partition(record), value(record));
    }
  }

  private static int partition(String record) {
    return Integer.parseInt(record.substring(0, record.indexOf(':')));
  }

  private static String value(String record) {
    return record.substring(record.indexOf(':') + 1);
  }
}
