package io.weir.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineChartTest {
  private static final Instant START = Instant.ofEpochSecond(1_000);
  private static final Instant END = START.plusSeconds(100);

  @Test
  void when_twoLinesOfDifferentScales_then_eachReachesTheTopAtItsOwnLargestValue() {
    // given: a rate up to 3,000 and a duration up to 2 at the same moments
    TimelineChart chart =
        new TimelineChart(
            "title",
            START,
            END,
            List.of(),
            List.of(),
            List.of(
                new TimelineChart.Series("rate", "#000001", points(0, 3_000)),
                new TimelineChart.Series("duration", "#000002", points(0, 2))));

    // when
    String svg = chart.svg();

    // then: both lines end at the top of the plot (y = 40), and the legend gives each top
    assertThat(svg)
        .contains("stroke=\"#000001\" stroke-width=\"1.5\" points=\"70.0,360.0 1180.0,40.0\"");
    assertThat(svg)
        .contains("stroke=\"#000002\" stroke-width=\"1.5\" points=\"70.0,360.0 1180.0,40.0\"");
    assertThat(svg).contains("rate (top 3,000)").contains("duration (top 2)");
  }

  @Test
  void when_aBandIsLabelled_then_itsLabelIsEscapedAndDrawnOverItsSpan() {
    // given
    TimelineChart chart =
        new TimelineChart(
            "title",
            START,
            END,
            List.of(
                new TimelineChart.Band(
                    START.plusSeconds(50), END, "#abcdef", "broker<1>", "kill broker<1>")),
            List.of(new TimelineChart.Key("#abcdef", "kill")),
            List.of());

    // when
    String svg = chart.svg();

    // then: from the middle of the plot to its right end
    assertThat(svg)
        .contains("<rect x=\"625.0\" y=\"40\" width=\"555.0\" height=\"320\" fill=\"#abcdef\"")
        .contains("<title>kill broker&lt;1&gt;</title>")
        .contains(">broker&lt;1&gt;</text>")
        .doesNotContain("broker<1>");
  }

  private static List<TimelineChart.Point> points(double first, double last) {
    return List.of(new TimelineChart.Point(START, first), new TimelineChart.Point(END, last));
  }
}
