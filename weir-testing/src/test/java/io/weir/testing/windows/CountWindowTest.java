package io.weir.testing.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.GlobalWindow;
import io.weir.testing.OperatorTestHarness;
import io.weir.testing.windows.WindowSummary.CountAndSum;
import io.weir.testing.windows.WindowSummary.FromTotals;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Count windows fire every {@code size} clicks of a user, on both backends, restored each input.
 */
class CountWindowTest {
  private static final long SIZE = 3;

  /** Summarizes the clicks of a full count window. */
  private static final class FromCountedClicks
      extends ProcessWindowFunction<Click, WindowSummary, String, GlobalWindow> {
    @Override
    public void process(
        String user,
        Context<GlobalWindow> context,
        Iterable<Click> clicks,
        Collector<WindowSummary> out) {
      long count = 0;
      long sum = 0;
      for (Click click : clicks) {
        count++;
        sum += click.value();
      }
      out.collect(new WindowSummary(user, 0, 0, count, sum));
    }
  }

  private static List<WindowSummary> run(OperatorSpec.CountWindow spec, String backend, long seed)
      throws Exception {
    ClickStream input = ClickStream.random(seed, 20, 4, 10, 5);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(spec, backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      input.feed(Harnesses.feed(harness));
      assertThat(harness.outputWithTimestamps())
          .allSatisfy(emitted -> assertThat(emitted.timestamp()).isEqualTo(Long.MAX_VALUE));
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.countWindows(input.clicks(), SIZE));
      return harness.output();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_everyThirdClickOfAUserArrives_then_theProcessFunctionGetsThoseThree(String backend)
      throws Exception {
    run(new OperatorSpec.CountWindow(SIZE, null, null, new FromCountedClicks()), backend, 31);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_countWindowsAggregate_then_eachFullWindowEmitsItsTotals(String backend)
      throws Exception {
    run(
        new OperatorSpec.CountWindow(SIZE, null, new CountAndSum(), new FromTotals<GlobalWindow>()),
        backend,
        32);
  }
}
