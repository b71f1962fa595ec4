package io.weir.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Adaptive credit on a real gate and record writer: the reader's throughput is set by moving the
 * gate's clock as the reader "processes" each batch it took, and the writer's batches show the
 * credit it was given.
 */
class ChannelCreditTest {
  private static final int CEILING = 512;
  private static final int GATE_BATCHES = 4;
  // The gate's batches and the one the single sender fills.
  private static final int BATCHES_IN_FLIGHT = GATE_BATCHES + 1;

  private final AtomicLong nanos = new AtomicLong();
  private final InputGate gate =
      new InputGate(
          1,
          GATE_BATCHES,
          BarrierOrder.IN_LINE,
          Collections.singletonList(null),
          ChannelCredit.adaptive(Duration.ofSeconds(1), CEILING, BATCHES_IN_FLIGHT, nanos::get));
  private final RecordWriter writer =
      new RecordWriter(ChannelSelector.forward(0), List.of(gate), 0, CEILING);

  @Test
  void when_theReaderSlowsDown_then_batchesHoldTheTargetTimeOfItsThroughput() throws Exception {
    // given: a reader fast enough that the credit stays at the ceiling
    List<Integer> fast = readAt(1_000_000, 50);
    assertThat(fast).containsOnly(CEILING);

    // when: the reader takes a thousand records a second
    List<Integer> slow = readAt(1_000, 40);

    // then: the batches in flight hold about one second of them
    int lastBatch = slow.get(slow.size() - 1);
    assertThat(lastBatch).isCloseTo(1_000 / BATCHES_IN_FLIGHT, within(2));
    assertThat(gate.credit().recordsPerSecond()).isCloseTo(1_000, within(10.0));
  }

  @Test
  void when_throughputFallsBelowWhatTheFloorHolds_then_theCreditStaysAtTheFloor() throws Exception {
    // given
    readAt(1_000, 40);

    // when: ten records a second would make batches of two records
    List<Integer> crawling = readAt(10, 30);

    // then
    assertThat(crawling.get(crawling.size() - 1)).isEqualTo(ChannelCredit.FLOOR);
  }

  @Test
  void when_theReaderSpeedsUpAgain_then_theCreditReturnsToTheCeiling() throws Exception {
    // given
    readAt(100, 30);
    assertThat(gate.credit().recordsPerBatch()).isLessThan(CEILING);

    // when: small batches of a fast reader take many to fill a measuring period
    List<Integer> recovered = readAt(1_000_000, 6_000);

    // then
    assertThat(recovered.get(recovered.size() - 1)).isEqualTo(CEILING);
  }

  @Test
  void when_theReaderWaitsForInput_then_theWaitDoesNotCountAsSlowProcessing() throws Exception {
    // given: a gate on the real clock whose reader waits for every record
    InputGate realTimeGate =
        new InputGate(
            1,
            GATE_BATCHES,
            BarrierOrder.IN_LINE,
            Collections.singletonList(null),
            ChannelCredit.adaptive(
                Duration.ofSeconds(1), CEILING, BATCHES_IN_FLIGHT, System::nanoTime));
    RecordWriter sender =
        new RecordWriter(ChannelSelector.forward(0), List.of(realTimeGate), 0, CEILING);

    // when: one record at a time, with a wait for input after each
    for (long record = 0; record < 100; record++) {
      sender.emit(record, record);
      sender.flushAll();
      assertThat(realTimeGate.poll(0)).isNotNull();
      assertThat(realTimeGate.poll(TimeUnit.MILLISECONDS.toNanos(5))).isNull();
    }

    // then: a trickle of input is not a slow reader (counting the waits, it would take some two
    // hundred records a second)
    assertThat(realTimeGate.credit().recordsPerSecond()).isGreaterThan(1_000);
    assertThat(realTimeGate.recordsPerBatch()).isEqualTo(CEILING);
  }

  @Test
  void when_adaptationIsOff_then_batchesKeepTheirFullSizeAndNothingIsMeasured() throws Exception {
    // given
    InputGate fixedGate =
        new InputGate(
            1,
            GATE_BATCHES,
            BarrierOrder.IN_LINE,
            Collections.singletonList(null),
            ChannelCredit.adaptive(Duration.ZERO, CEILING, BATCHES_IN_FLIGHT, nanos::get));
    RecordWriter sender =
        new RecordWriter(ChannelSelector.forward(0), List.of(fixedGate), 0, CEILING);

    // when: a reader that takes ten records a second
    for (long record = 0; record < 3L * CEILING; record++) {
      sender.emit(record, record);
      Batch batch = fixedGate.poll(0);
      if (batch != null) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(100) * batch.size());
        // then
        assertThat(batch.size()).isEqualTo(CEILING);
      }
    }
    assertThat(fixedGate.credit().recordsPerSecond()).isNaN();
  }

  /**
   * Sends records until the reader took {@code batches} batches, the reader taking each batch's
   * records at {@code recordsPerSecond}; returns the sizes of the batches it took.
   */
  private List<Integer> readAt(long recordsPerSecond, int batches) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    long record = 0;
    while (sizes.size() < batches) {
      writer.emit(record++, 0);
      Batch batch = gate.poll(0);
      if (batch != null) {
        sizes.add(batch.size());
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1) * batch.size() / recordsPerSecond);
      }
    }
    return sizes;
  }
}
