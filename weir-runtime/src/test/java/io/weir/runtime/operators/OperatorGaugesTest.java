package io.weir.runtime.operators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class OperatorGaugesTest {
  private final OperatorGauges gauges = new OperatorGauges();

  @Test
  void when_read_then_eachGaugeShowsItsValueNow() {
    AtomicLong sent = new AtomicLong();
    gauges.gauge("records_sent", sent::get);
    gauges.gauge("lag_max", () -> 7);

    sent.set(3);
    assertThat(gauges.values()).containsEntry("records_sent", 3.0).containsEntry("lag_max", 7.0);
    sent.set(5);
    assertThat(gauges.values()).containsEntry("records_sent", 5.0);
  }

  @Test
  void when_aGaugeIsAddedTwice_then_theLaterOneIsRead() {
    gauges.gauge("lag_max", () -> 1);
    gauges.gauge("lag_max", () -> 2);

    assertThat(gauges.values()).containsExactlyEntriesOf(Map.of("lag_max", 2.0));
  }

  @Test
  void when_aGaugeHasNoNumberOrThrows_then_itIsLeftOutAndTheOthersAreRead() {
    gauges.gauge("not_yet", () -> Double.NaN);
    gauges.gauge(
        "broken",
        () -> {
          throw new IllegalStateException("closed");
        });
    gauges.gauge("fine", () -> 1);

    assertThat(gauges.values()).containsOnlyKeys("fine");
  }

  @Test
  void when_theNameIsNotAGaugesName_then_itIsRefusedNamingIt() {
    for (String name :
        new String[] {"Lag", "9lives", "lag-max", "", "records_in", "sent_total", "latency_sum"}) {
      assertThatThrownBy(() -> gauges.gauge(name, () -> 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageEndingWith(": " + name);
    }
    assertThat(gauges.values()).isEmpty();
  }
}
