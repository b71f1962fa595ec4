package io.weir.runtime.operators.window;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.datastream.JobConfig;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.api.graph.OperatorSpec;
import io.weir.runtime.operators.OperatorFactory;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Drives one keyed operator directly, on the test's thread: records, watermarks, processing time,
 * snapshot and restore into a fresh instance, with everything it emits recorded.
 */
final class OperatorHarness<K> {
  /** One emitted record with its timestamp. */
  record Emitted(Object value, long timestamp) {}

  private final OperatorSpec spec;
  private final KeySelector<?, K> keySelector;
  final ManualTimeService time;
  final List<Emitted> output = new ArrayList<>();
  final List<Emitted> sideOutput = new ArrayList<>();
  final List<Long> watermarks = new ArrayList<>();
  private StreamOperator operator;

  OperatorHarness(OperatorSpec spec, KeySelector<?, K> keySelector) throws Exception {
    this(spec, keySelector, new ManualTimeService(0), OperatorSubtaskState.EMPTY);
  }

  private OperatorHarness(
      OperatorSpec spec,
      KeySelector<?, K> keySelector,
      ManualTimeService time,
      OperatorSubtaskState restored)
      throws Exception {
    this.spec = spec;
    this.keySelector = keySelector;
    this.time = time;
    OperatorSetup setup =
        new OperatorSetup(
            "window-uid",
            "Window",
            "harness",
            0,
            1,
            128,
            0,
            keySelector,
            restored,
            restored.isEmpty() ? OptionalLong.empty() : OptionalLong.of(1),
            time,
            CommitObserver.NONE);
    operator = OperatorFactory.create(spec, setup, new RecordingOutput(), new JobConfig());
    operator.initializeState();
    operator.open();
  }

  StreamOperator operator() {
    return operator;
  }

  OperatorHarness<K> process(Object record, long timestamp) throws Exception {
    operator.processElement(record, timestamp);
    return this;
  }

  OperatorHarness<K> watermark(long watermark) throws Exception {
    operator.processWatermark(watermark);
    return this;
  }

  OperatorSubtaskState snapshot() throws Exception {
    return operator.snapshotState(1, 0);
  }

  /** A fresh operator restored from {@code state}, as after a failover; its time goes on. */
  OperatorHarness<K> restore(OperatorSubtaskState state) throws Exception {
    operator.close();
    return new OperatorHarness<>(spec, keySelector, time, state);
  }

  List<Object> values() {
    return output.stream().map(Emitted::value).toList();
  }

  private final class RecordingOutput implements Output {
    @Override
    public void collect(Object record, long timestamp) {
      output.add(new Emitted(record, timestamp));
    }

    @Override
    public void collectSide(OutputTag<?> tag, Object record, long timestamp) {
      sideOutput.add(new Emitted(record, timestamp));
    }

    @Override
    public void emitWatermark(long watermark) {
      watermarks.add(watermark);
    }

    @Override
    public void emitWatermarkStatus(boolean idle) {}
  }
}
