package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.OutputTag;
import org.junit.jupiter.api.Test;

/**
 * An unkeyed co-process function sees each record's timestamp, the last watermark, side outputs.
 */
class CoProcessHarnessTest {
  private static final OutputTag<String> SECOND = new OutputTag<>("second");

  /** Describes each record with what its context says; the second input's go to a side output. */
  private static final class Describe extends CoProcessFunction<String, Long, String> {
    @Override
    public void processElement1(String value, Context context, Collector<String> out) {
      out.collect(value + " at " + context.timestamp() + " after " + context.currentWatermark());
    }

    @Override
    public void processElement2(Long value, Context context, Collector<String> out) {
      context.output(
          SECOND, value + " at " + context.timestamp() + " after " + context.currentWatermark());
    }
  }

  @Test
  void when_recordsOnBothInputsAroundAWatermark_then_contextShowsTimestampAndWatermark()
      throws Exception {
    try (TwoInputOperatorTestHarness<String, Long, String> harness =
        OperatorHarnesses.forCoProcess(new Describe()).open()) {
      // when
      harness.processElement1("a", 3).processElement2(7L, 4);
      harness.processWatermark(5);
      harness.processElement1("b", 8).processElement2(9L, 6);

      // then
      assertThat(harness.output())
          .containsExactly("a at 3 after " + Long.MIN_VALUE, "b at 8 after 5");
      assertThat(harness.sideOutput(SECOND))
          .containsExactly("7 at 4 after " + Long.MIN_VALUE, "9 at 6 after 5");
    }
  }
}
