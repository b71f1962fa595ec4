package io.weir.testing.windows;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import io.weir.testing.OperatorHarnessBuilder;
import io.weir.testing.OperatorHarnesses;
import io.weir.testing.OperatorTestHarness;

/** The window tests' harnesses: keyed by user, on a named backend. */
final class Harnesses {
  private Harnesses() {}

  static StateBackend backend(String name) {
    return switch (name) {
      case "heap" -> StateBackends.heap();
      case "rocksdb" -> StateBackends.rocksdb();
      default -> throw new IllegalArgumentException("no backend " + name);
    };
  }

  /** The operator of {@code spec} after {@code keyBy(Click::user)}, on {@code backend}. */
  static <OUT> OperatorHarnessBuilder<Click, OUT> byUser(OperatorSpec spec, String backend) {
    return OperatorHarnesses.<Click, OUT>forOperator(spec)
        .keyBy(Click::user)
        .stateBackend(backend(backend));
  }

  /** Feeds clicks to {@code harness} with their time as timestamp. */
  static ClickStream.ClickFeed feed(OperatorTestHarness<Click, ?> harness) {
    return new ClickStream.ClickFeed() {
      @Override
      public void click(Click click) throws Exception {
        harness.processElement(click, click.time());
      }

      @Override
      public void watermark(long watermark) throws Exception {
        harness.processWatermark(watermark);
      }
    };
  }
}
