package io.weir.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The watermark valve as a two-input task lays out its channels: channels 0 and 1 carry the first
 * input, channel 2 the second. Event time is the minimum over both inputs; an idle input stops
 * holding it back, and on its return holds it again without moving it backwards.
 */
class TwoInputWatermarkValveTest {
  private final List<Long> watermarks = new ArrayList<>();
  private final List<Boolean> idleness = new ArrayList<>();
  private final WatermarkValve valve =
      new WatermarkValve(
          3,
          new WatermarkValve.Listener() {
            @Override
            public void onWatermark(long watermark) {
              watermarks.add(watermark);
            }

            @Override
            public void onIdle(boolean idle) {
              idleness.add(idle);
            }
          });

  @Test
  void when_secondInputLags_then_itHoldsEventTimeBack() throws Exception {
    // when
    valve.onWatermark(0, 100);
    valve.onWatermark(1, 120);
    valve.onWatermark(2, 40);
    // then
    assertThat(watermarks).containsExactly(40L);
  }

  @Test
  void when_secondInputGoesIdleAndReturns_then_eventTimeFollowsTheFirstThenBothAgain()
      throws Exception {
    // given: the second input is behind
    valve.onWatermark(0, 100);
    valve.onWatermark(1, 120);
    valve.onWatermark(2, 40);
    // when: it goes idle, then the first input moves on alone
    valve.onStatus(2, true);
    valve.onWatermark(0, 150);
    // then
    assertThat(watermarks).containsExactly(40L, 100L, 120L);
    assertThat(idleness).isEmpty();

    // when: it returns behind the current event time, then catches up past the first input
    valve.onWatermark(2, 110);
    valve.onWatermark(0, 200);
    valve.onWatermark(1, 210);
    valve.onWatermark(2, 205);
    // then: never backwards, and held by the second input again until it passed 200
    assertThat(watermarks).containsExactly(40L, 100L, 120L, 200L);
  }

  @Test
  void when_bothInputsGoIdle_then_theTaskIsIdleAndResumesWithEitherInput() throws Exception {
    // when
    valve.onStatus(0, true);
    valve.onStatus(1, true);
    valve.onStatus(2, true);
    valve.onWatermark(2, 10);
    // then
    assertThat(idleness).containsExactly(true, false);
    assertThat(watermarks).containsExactly(10L);
  }
}
