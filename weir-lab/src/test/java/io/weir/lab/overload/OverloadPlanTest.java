package io.weir.lab.overload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverloadPlanTest {
  @Test
  void when_aMapTakesTwoMilliseconds_then_overloadIsThreeTimesItsCapacityAndRecoveryAQuarter() {
    OverloadPlan plan = new OverloadPlan(2000, Duration.ofMinutes(1));

    assertThat(plan.capacityPerSecond()).isEqualTo(500);
    assertThat(plan.overloadRate()).isEqualTo(1500);
    assertThat(plan.recoveryRate()).isEqualTo(125);
  }

  @Test
  void when_fiveMinutes_then_threeCyclesEachEndingInARecoveryFiveTimesTheOverloadsLengthOrMore() {
    List<OverloadPlan.Phase> phases = new OverloadPlan(2000, Duration.ofMinutes(5)).phases();

    assertThat(phases)
        .extracting(OverloadPlan.Phase::kind)
        .containsExactly(
            PhaseKind.OVERLOAD,
            PhaseKind.RECOVERY,
            PhaseKind.OVERLOAD,
            PhaseKind.RECOVERY,
            PhaseKind.OVERLOAD,
            PhaseKind.RECOVERY);
    for (int i = 0; i < phases.size(); i += 2) {
      assertThat(phases.get(i + 1).length())
          .isGreaterThanOrEqualTo(phases.get(i).length().multipliedBy(5));
      assertThat(phases.get(i + 1).start()).isEqualTo(phases.get(i).end());
    }
    assertThat(phases.get(phases.size() - 1).end()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void when_oneMinute_then_oneCycleOfTenSecondsOverloadAndFiftyRecovery() {
    List<OverloadPlan.Phase> phases = new OverloadPlan(2000, Duration.ofMinutes(1)).phases();

    assertThat(phases)
        .extracting(OverloadPlan.Phase::length)
        .containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(50));
  }
}
