package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.functions.Collector;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessFunction;
import io.weir.examples.SeedRecords;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import org.junit.jupiter.api.Test;

class OperatorTestHarnessTest {
  private static final OutputTag<String> ODD = new OutputTag<>("odd");

  /** Numbers go on; odd ones also to a side output. */
  private static final class SplitOdd extends ProcessFunction<Integer, Integer> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(Integer value, Context context, Collector<Integer> out) {
      out.collect(value);
      if (value % 2 != 0) {
        context.output(ODD, "odd " + value);
      }
    }
  }

  @Test
  void when_seedMapRunsAfterKeyBy_then_eachRecordComesOutWithItsFrequencyIncremented()
      throws Exception {
    // given
    try (OperatorTestHarness<String, String> harness =
        OperatorHarnesses.forMap(SeedRecords::incrementFrequency)
            .keyBy(SeedRecords::word)
            .parallelism(2)
            .open()) {
      // when
      harness.processElement("a,5,1572845161023", 1572845161023L);
      harness.processElement("b,9,1572845161024", 1572845161024L);
      // then
      assertThat(harness.outputWithTimestamps())
          .containsExactlyInAnyOrder(
              new Timestamped<>("a,6,1572845161023", 1572845161023L),
              new Timestamped<>("b,10,1572845161024", 1572845161024L));
    }
  }

  @Test
  void when_processFunctionWritesSideOutput_then_harnessReadsItByTag() throws Exception {
    // given
    try (OperatorTestHarness<Integer, Integer> harness =
        OperatorHarnesses.forProcess(new SplitOdd()).open()) {
      // when
      harness.processElement(1).processElement(2).processElement(3).processWatermark(7);
      // then
      assertThat(harness.output()).containsExactly(1, 2, 3);
      assertThat(harness.sideOutput(ODD)).containsExactly("odd 1", "odd 3");
      assertThat(harness.watermarks()).containsExactly(7L);
    }
  }

  @Test
  void when_functionCannotBeSerialized_then_harnessFailsAsACluster() {
    // given: a function holding a stream, which a shipped job could not carry
    OutputStream notSerializable = new ByteArrayOutputStream();
    MapFunction<String, String> function =
        value -> {
          notSerializable.write(1);
          return value;
        };
    // when / then
    assertThatThrownBy(() -> OperatorHarnesses.forMap(function).open()).hasMessageContaining("Map");
  }

  @Test
  void when_operatorCrashed_then_inputIsRefusedUntilRestore() throws Exception {
    // given
    OperatorTestHarness<Integer, Integer> harness =
        OperatorHarnesses.forProcess(new SplitOdd()).open();
    OperatorSnapshot snapshot = harness.snapshot();
    // when
    harness.crash();
    // then
    assertThatThrownBy(() -> harness.processElement(1)).hasMessageContaining("restore it first");
    harness.restore(snapshot).processElement(1);
    assertThat(harness.output()).containsExactly(1);
    harness.close();
  }
}
