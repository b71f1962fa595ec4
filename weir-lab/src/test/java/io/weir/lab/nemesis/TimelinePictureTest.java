package io.weir.lab.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeline picture draws every fault kind. */
class TimelinePictureTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void when_aFaultOfEachKindIsDrawn_then_eachBandAndLegendEntryHasAColour() {
    // given: one fault of each kind, ten seconds apart
    List<Fault> faults = new ArrayList<>();
    for (FaultKind kind : FaultKind.all()) {
      long second = 10L * faults.size();
      faults.add(
          new Fault(kind, kind.key() + " target", START.plusSeconds(second), at(second + 5)));
    }
    List<OutputWatch.Arrival> arrivals =
        List.of(new OutputWatch.Arrival(at(1), 10), new OutputWatch.Arrival(at(70), 90));

    // when
    String svg = new TimelinePicture(START, at(80), faults, arrivals).svg();

    // then
    assertThat(svg).doesNotContain("\"null\"");
    for (FaultKind kind : FaultKind.all()) {
      assertThat(svg).contains(">" + kind.key() + "<");
    }
  }

  private static Instant at(long second) {
    return START.plusSeconds(second);
  }
}
