package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DashboardTokenTest {
  @Test
  void when_derivedFromTheSecret_then_everyJobManagerComputesTheSameTokenWhichIsNotTheSecret() {
    String token = DashboardToken.of(null, "s3cret");
    assertThat(token).isEqualTo(DashboardToken.of("", "s3cret")).isNotEqualTo("s3cret");
    assertThat(token).doesNotContain("s3cret").hasSize(43);
    assertThat(DashboardToken.of(null, "other")).isNotEqualTo(token);
  }

  @Test
  void when_noSecret_then_noToken_andAConfiguredOneWins() {
    assertThat(DashboardToken.of(null, "")).isEmpty();
    assertThat(DashboardToken.of("mine", "s3cret")).isEqualTo("mine");
  }

  @Test
  void when_configuredTokenIsTheSecret_then_refused() {
    assertThatThrownBy(() -> DashboardToken.of("s3cret", "s3cret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("dashboard.token must not be the cluster's secret");
  }
}
