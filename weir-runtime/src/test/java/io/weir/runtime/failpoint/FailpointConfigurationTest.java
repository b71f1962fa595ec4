package io.weir.runtime.failpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FailpointConfigurationTest {

  @Test
  void when_severalEntries_then_eachIsParsedWithItsActionAndHit() {
    Map<String, Failpoint> failpoints =
        FailpointConfiguration.parse(
            "sink.commit.before=halt@3, task.ack.before=pause(250),checkpoint.trigger=throw,"
                + "coordinator.metadata.after=halt(3)",
            "test");

    assertThat(failpoints)
        .containsExactly(
            Map.entry(
                "sink.commit.before",
                new Failpoint("sink.commit.before", new FailpointAction.Halt(137), 3)),
            Map.entry(
                "task.ack.before",
                new Failpoint("task.ack.before", new FailpointAction.Pause(250), 0)),
            Map.entry(
                "checkpoint.trigger",
                new Failpoint("checkpoint.trigger", new FailpointAction.Throw(), 0)),
            Map.entry(
                "coordinator.metadata.after",
                new Failpoint("coordinator.metadata.after", new FailpointAction.Halt(3), 0)));
  }

  @Test
  void when_aRangeOfHits_then_itFiresOnEachOfThemAndNoOther() {
    // when
    Failpoint failpoint =
        FailpointConfiguration.parse("task.ack.before=throw@3-5", "test").get("task.ack.before");

    // then
    assertThat(failpoint)
        .isEqualTo(new Failpoint("task.ack.before", new FailpointAction.Throw(), 3, 5));
    assertThat(java.util.stream.IntStream.rangeClosed(1, 7).filter(failpoint::firesOn))
        .containsExactly(3, 4, 5);
  }

  @Test
  void when_theLastHitComesBeforeTheFirst_then_refused() {
    assertThatThrownBy(() -> FailpointConfiguration.parse("task.ack.before=throw@5-3", "test"))
        .hasMessageContaining("the last hit comes before the first");
  }

  @Test
  void when_blank_then_nothingIsArmed() {
    assertThat(FailpointConfiguration.parse("  ", "test")).isEmpty();
  }

  @Test
  void when_unknownName_then_errorListsTheKnownNames() {
    assertThatThrownBy(() -> FailpointConfiguration.parse("sink.comit.before=halt", "test"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown failpoint 'sink.comit.before' in test")
        .hasMessageContaining("sink.commit.before")
        .hasMessageContaining("source.offsets-commit.after");
  }

  @Test
  void when_unknownAction_then_errorNamesTheEntry() {
    assertThatThrownBy(() -> FailpointConfiguration.parse("sink.commit.before=explode", "test"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid failpoint 'sink.commit.before=explode' in test");
  }

  @Test
  void when_pauseWithoutDuration_then_refused() {
    assertThatThrownBy(() -> FailpointConfiguration.parse("sink.commit.before=pause", "test"))
        .hasMessageContaining("pause needs (ms)");
  }

  @Test
  void when_hitZero_then_refused() {
    assertThatThrownBy(() -> FailpointConfiguration.parse("sink.commit.before=throw@0", "test"))
        .hasMessageContaining("hits count from 1");
  }

  @Test
  void when_nameConfiguredTwice_then_refused() {
    assertThatThrownBy(
            () ->
                FailpointConfiguration.parse(
                    "sink.commit.before=throw,sink.commit.before=halt", "test"))
        .hasMessageContaining("configured twice");
  }

  @Test
  void when_nameRegistered_then_itCanBeConfigured() {
    FailpointNames.register("test.registered.point");

    assertThat(FailpointConfiguration.parse("test.registered.point=throw", "test"))
        .containsKey("test.registered.point");
  }
}
