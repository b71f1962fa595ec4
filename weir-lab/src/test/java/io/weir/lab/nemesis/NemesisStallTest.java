package io.weir.lab.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the checker measures the stall after each fault, from the heal to the next commit. */
class NemesisStallTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void when_outputResumesAfterTheHeal_then_theStallLastsUntilTheNextCommit() {
    // given: a fault healed at 20 s; commits at 5 s (before the fault) and at 27 s
    Fault fault = new Fault(FaultKind.KILL, "job (SIGKILL)", at(10), at(20));
    List<OutputWatch.Arrival> arrivals = List.of(arrival(5, 100), arrival(27, 150));

    // when
    List<Duration> stalls = NemesisChecker.stalls(List.of(fault), arrivals, at(60));

    // then
    assertThat(stalls).containsExactly(Duration.ofSeconds(7));
  }

  @Test
  void when_noOutputFollowsTheHeal_then_theStallLastsUntilTheWatchEnded() {
    // given
    Fault fault = new Fault(FaultKind.BROKER, "broker-2 (transaction coordinator)", at(10), at(20));
    List<OutputWatch.Arrival> arrivals = List.of(arrival(15, 100));

    // when
    List<Duration> stalls = NemesisChecker.stalls(List.of(fault), arrivals, at(90));

    // then
    assertThat(stalls).containsExactly(Duration.ofSeconds(70));
  }

  private static OutputWatch.Arrival arrival(long second, long committed) {
    return new OutputWatch.Arrival(at(second), committed);
  }

  private static Instant at(long second) {
    return START.plusSeconds(second);
  }
}
