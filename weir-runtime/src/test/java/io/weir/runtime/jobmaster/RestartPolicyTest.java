package io.weir.runtime.jobmaster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.source.RecordFailureException;
import io.weir.runtime.task.OperatorFailure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** When a failing record stops the restarts. */
class RestartPolicyTest {
  private final RestartPolicy policy =
      new RestartPolicy(RestartStrategy.fixedDelay(Integer.MAX_VALUE, Duration.ofSeconds(1)), 3);

  @Test
  void when_theSameRecordFailsTheJobThreeTimes_then_theJobIsNotRestartedAndTheRecordIsNamed() {
    // given / when: the same record fails three attempts
    boolean[] restarted = new boolean[3];
    for (int attempt = 0; attempt < 3; attempt++) {
      restarted[attempt] = policy.onFailure(attempt, failureAt("orders-3", 17, "")).isPresent();
    }

    // then
    assertThat(restarted).containsExactly(true, true, false);
    assertThat(policy.describe())
        .isEqualTo(
            "not restarted: the record of orders-3 at offset 17 (value \"\") failed the job 3"
                + " times in a row; fix the function that rejects it, then resume: the job"
                + " restarts from its latest checkpoint and nothing past it was committed");
  }

  @Test
  void when_onlyItsMessageCrossedAProcess_then_theRecordIsStillRecognized() {
    // given: failures as a task manager reports them, by message only
    String reported = "Map (1/2) on tm-1: " + failureAt("orders-3", 17, "a)b\"c");

    // when
    for (int attempt = 0; attempt < 2; attempt++) {
      policy.onFailure(attempt, new IllegalStateException(reported));
    }

    // then
    assertThat(policy.onFailure(2, new IllegalStateException(reported))).isEmpty();
    assertThat(policy.describe()).contains("orders-3 at offset 17 (value \"a\\x29b\\x22c\")");
  }

  @Test
  void when_differentRecordsFail_then_theJobIsRestarted() {
    for (int offset = 0; offset < 5; offset++) {
      assertThat(policy.onFailure(offset, failureAt("orders-3", offset, "x"))).isPresent();
    }
  }

  @Test
  void when_anotherFailureComesBetween_then_theRecordsCountStartsAgain() {
    // given: the record failed twice, then the broker was unreachable once
    policy.onFailure(0, failureAt("orders-3", 17, "x"));
    policy.onFailure(1, failureAt("orders-3", 17, "x"));
    policy.onFailure(2, new IllegalStateException("Cannot reach Kafka"));

    // when / then: two more failures of the record are not yet three in a row
    assertThat(policy.onFailure(3, failureAt("orders-3", 17, "x"))).isPresent();
    assertThat(policy.onFailure(4, failureAt("orders-3", 17, "x"))).isPresent();
    assertThat(policy.onFailure(5, failureAt("orders-3", 17, "x"))).isEmpty();
  }

  private static Throwable failureAt(String partition, long offset, String value) {
    Exception cause = new IllegalArgumentException("Not a word,frequency,timestamp record");
    return new OperatorFailure(
        "'Example Source' (subtask 1/1)",
        new RecordFailureException(
            partition, offset, value.getBytes(StandardCharsets.UTF_8), cause));
  }
}
