package io.weir.runtime.failpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.weir.api.datastream.JobConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailpointsTest {

  @Test
  void when_nothingArmed_then_hitDoesNothing() {
    Failpoints failpoints = Failpoints.none();

    failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE);

    assertThat(failpoints.hits(FailpointNames.SINK_COMMIT_BEFORE)).isZero();
  }

  @Test
  void when_throwArmed_then_everyHitThrowsNamingTheFailpoint() {
    Failpoints failpoints = Failpoints.of("sink.commit.before=throw");

    for (int attempt = 0; attempt < 2; attempt++) {
      assertThatThrownBy(() -> failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE))
          .isInstanceOf(FailpointException.class)
          .hasMessage("failpoint sink.commit.before hit: throwing");
    }
    failpoints.hit(FailpointNames.SINK_COMMIT_AFTER);
  }

  @Test
  void when_armedForThirdHit_then_onlyTheThirdHitFires() {
    Failpoints failpoints = Failpoints.of("task.ack.before=throw@3");

    List<Boolean> fired = new ArrayList<>();
    for (int hit = 1; hit <= 5; hit++) {
      fired.add(catchThrowable(() -> failpoints.hit(FailpointNames.TASK_ACK_BEFORE)) != null);
    }

    assertThat(fired).containsExactly(false, false, true, false, false);
    assertThat(failpoints.hits(FailpointNames.TASK_ACK_BEFORE)).isEqualTo(5);
  }

  @Test
  void when_pauseArmed_then_hitBlocksForTheDuration() {
    Failpoints failpoints = Failpoints.of("coordinator.notify.before=pause(200)");

    long start = System.nanoTime();
    failpoints.hit(FailpointNames.COORDINATOR_NOTIFY_BEFORE);
    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(elapsedMillis).isGreaterThanOrEqualTo(200);
  }

  @Test
  void when_twoInstancesArmTheSameFailpoint_then_eachCountsItsOwnHits() {
    Failpoints first = Failpoints.of("checkpoint.trigger=throw@2");
    Failpoints second = Failpoints.of("checkpoint.trigger=throw@2");

    first.hit(FailpointNames.CHECKPOINT_TRIGGER);
    second.hit(FailpointNames.CHECKPOINT_TRIGGER);

    assertThatThrownBy(() -> first.hit(FailpointNames.CHECKPOINT_TRIGGER))
        .isInstanceOf(FailpointException.class);
    assertThat(first.hits(FailpointNames.CHECKPOINT_TRIGGER)).isEqualTo(2);
    assertThat(second.hits(FailpointNames.CHECKPOINT_TRIGGER)).isEqualTo(1);
  }

  @Test
  void when_unknownFailpointConfigured_then_armingFailsNamingIt() {
    assertThatThrownBy(() -> Failpoints.of("checkpoint.nowhere=throw"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("checkpoint.nowhere");
  }

  @Test
  void when_jobArmsItsOwnFailpoints_then_theProcessConfigurationIsNotApplied() {
    JobConfig config = new JobConfig().failpoints("task.ack.before=throw");

    FailpointConfiguration.applyProcessConfiguration(config);

    assertThat(config.failpoints()).isEqualTo("task.ack.before=throw");
  }
}
