package io.weir.runtime.operators;

import io.weir.api.eventtime.TimestampAssigner;
import io.weir.api.eventtime.WatermarkGenerator;
import io.weir.api.eventtime.WatermarkOutput;
import io.weir.api.eventtime.WatermarkStrategy;
import java.time.Duration;

/**
 * Assigns event timestamps and generates watermarks with a {@link WatermarkStrategy}: calls the
 * generator per record and at every auto-watermark interval, emits a watermark only when it
 * advances, and marks the subtask idle when no record came within the idleness timeout. Upstream
 * watermarks are replaced by its own, except the final one at the end of input.
 */
public final class TimestampsOperator extends AbstractStreamOperator<WatermarkStrategy<Object>>
    implements WatermarkOutput {
  private final long intervalMillis;
  private final long idleTimeoutMillis;
  private TimestampAssigner<Object> assigner;
  private WatermarkGenerator<Object> generator;
  private long emittedWatermark = Long.MIN_VALUE;
  private boolean idle;
  private long lastRecordTime;

  public TimestampsOperator(
      OperatorSetup setup,
      WatermarkStrategy<Object> strategy,
      Duration autoWatermarkInterval,
      Output output) {
    super(setup, strategy, output);
    this.intervalMillis = Math.max(1, autoWatermarkInterval.toMillis());
    Duration idleTimeout = strategy.idleTimeout();
    this.idleTimeoutMillis = idleTimeout == null ? Long.MAX_VALUE : idleTimeout.toMillis();
  }

  @Override
  public void open() throws Exception {
    super.open();
    assigner = function.timestampAssigner();
    generator = function.createWatermarkGenerator();
    lastRecordTime = setup.timeService().currentTime();
    scheduleNext(lastRecordTime);
  }

  private void scheduleNext(long now) {
    setup.timeService().schedule(now + intervalMillis, this::onPeriodicEmit);
  }

  private void onPeriodicEmit(long now) throws Exception {
    if (!idle && idleTimeoutMillis != Long.MAX_VALUE && now - lastRecordTime >= idleTimeoutMillis) {
      markIdle();
    }
    generator.onPeriodicEmit(this);
    scheduleNext(now);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    if (idle) {
      idle = false;
      output.emitWatermarkStatus(false);
    }
    if (idleTimeoutMillis != Long.MAX_VALUE) {
      lastRecordTime = setup.timeService().currentTime();
    }
    long eventTime = assigner.extractTimestamp(record, timestamp);
    output.collect(record, eventTime);
    generator.onEvent(record, eventTime, this);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    if (watermark == Long.MAX_VALUE) {
      emitWatermark(Long.MAX_VALUE);
    }
  }

  @Override
  public void endInput() throws Exception {
    emitWatermark(Long.MAX_VALUE);
  }

  @Override
  public void emitWatermark(long watermark) {
    if (watermark > emittedWatermark) {
      emittedWatermark = watermark;
      try {
        output.emitWatermark(watermark);
      } catch (Exception e) {
        throw OperatorException.unchecked(e);
      }
    }
  }

  @Override
  public void markIdle() {
    if (!idle) {
      idle = true;
      try {
        output.emitWatermarkStatus(true);
      } catch (Exception e) {
        throw OperatorException.unchecked(e);
      }
    }
  }
}
