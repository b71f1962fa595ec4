package io.weir.runtime.failpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailpointsTest {

  @AfterEach
  void disarm() {
    Failpoints.reset();
  }

  @Test
  void when_nothingArmed_then_hitDoesNothing() {
    Failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE);

    assertThat(Failpoints.hits(FailpointNames.SINK_COMMIT_BEFORE)).isZero();
  }

  @Test
  void when_throwArmed_then_everyHitThrowsNamingTheFailpoint() {
    Failpoints.configure("sink.commit.before=throw");

    for (int attempt = 0; attempt < 2; attempt++) {
      assertThatThrownBy(() -> Failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE))
          .isInstanceOf(FailpointException.class)
          .hasMessage("failpoint sink.commit.before hit: throwing");
    }
    Failpoints.hit(FailpointNames.SINK_COMMIT_AFTER);
  }

  @Test
  void when_armedForThirdHit_then_onlyTheThirdHitFires() {
    Failpoints.configure("task.ack.before=throw@3");

    List<Boolean> fired = new ArrayList<>();
    for (int hit = 1; hit <= 5; hit++) {
      fired.add(catchThrowable(() -> Failpoints.hit(FailpointNames.TASK_ACK_BEFORE)) != null);
    }

    assertThat(fired).containsExactly(false, false, true, false, false);
    assertThat(Failpoints.hits(FailpointNames.TASK_ACK_BEFORE)).isEqualTo(5);
  }

  @Test
  void when_pauseArmed_then_hitBlocksForTheDuration() {
    Failpoints.configure("coordinator.notify.before=pause(200)");

    long start = System.nanoTime();
    Failpoints.hit(FailpointNames.COORDINATOR_NOTIFY_BEFORE);
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(elapsedMillis).isGreaterThanOrEqualTo(200);
  }

  @Test
  void when_reconfigured_then_hitCountsRestart() {
    Failpoints.configure("checkpoint.trigger=throw@2");
    Failpoints.hit(FailpointNames.CHECKPOINT_TRIGGER);

    Failpoints.configure("checkpoint.trigger=throw@2");
    Failpoints.hit(FailpointNames.CHECKPOINT_TRIGGER);

    assertThatThrownBy(() -> Failpoints.hit(FailpointNames.CHECKPOINT_TRIGGER))
        .isInstanceOf(FailpointException.class);
  }

  @Test
  void when_reset_then_nothingFires() {
    Failpoints.configure("checkpoint.trigger=throw");
    Failpoints.reset();

    Failpoints.hit(FailpointNames.CHECKPOINT_TRIGGER);
  }
}
