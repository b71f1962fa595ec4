package io.weir.runtime.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.state.StateSerializer;
import java.io.IOException;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InputGateTest {
  private static final StreamEvent.CheckpointBarrier BARRIER =
      new StreamEvent.CheckpointBarrier(1, 0);

  @Test
  void when_aDeliveryFails_then_aReaderWaitingForInputFailsWithItsCause() throws Exception {
    InputGate gate = new InputGate(1, 2);
    CompletableFuture<Batch> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return gate.poll(TimeUnit.SECONDS.toNanos(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });

    gate.failDelivery(new IOException("Cannot decode a batch for task-2 subtask 0"));

    assertThat(read)
        .failsWithin(10, TimeUnit.SECONDS)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(UndeliverableInputException.class)
        .withMessageContaining("Cannot decode a batch for task-2 subtask 0");
  }

  @Test
  void when_aDeliveryFailedAfterOtherBatches_then_theNextPollFailsToo() throws Exception {
    InputGate gate = new InputGate(1, 4);
    gate.put(Batch.of(0, new Object[] {"a"}, new long[1]));

    gate.failDelivery(new IOException("refused"));

    assertThatThrownBy(() -> gate.poll(0))
        .isInstanceOf(UndeliverableInputException.class)
        .hasMessageContaining("refused");
  }

  @Test
  void when_barriersOvertake_then_anAnnouncementWaitsUntilTheReaderTookIt() throws Exception {
    // given: a record queued, then two barriers that overtake it
    InputGate gate =
        new InputGate(
            2,
            4,
            BarrierOrder.OVERTAKING,
            Collections.nCopies(2, null),
            ChannelCredit.fixed(Integer.MAX_VALUE));
    gate.put(Batch.of(0, new Object[] {"a"}, new long[1]));
    assertThat(gate.announcementWaiting()).as("only a record queued").isFalse();
    gate.put(Batch.of(0, new Object[] {BARRIER}, new long[1]));
    gate.put(Batch.of(1, new Object[] {BARRIER}, new long[1]));

    // when / then: each announcement waits until the reader took it, the record does not
    assertThat(gate.announcementWaiting()).isTrue();
    assertThat(gate.pollAnnouncement()).isNotNull();
    assertThat(gate.announcementWaiting()).as("channel 1's announcement").isTrue();
    assertThat(gate.poll(0).value(0)).isInstanceOf(StreamEvent.BarrierAnnouncement.class);
    assertThat(gate.announcementWaiting()).isFalse();
  }

  @Test
  void when_recordsAreQueued_then_theGateCountsThemByChannelAndEstimatesTheirBytes()
      throws Exception {
    // given: two channels whose records go through Java serialization in flight
    InputGate gate =
        new InputGate(
            2,
            4,
            BarrierOrder.IN_LINE,
            Collections.nCopies(2, null),
            ChannelCredit.fixed(Integer.MAX_VALUE));
    gate.put(Batch.of(0, new Object[] {1L, 2L, 3L}, new long[3]));
    gate.put(Batch.of(1, new Object[] {4L, 5L}, new long[2]));
    assertThat(gate.queuedRecordsByChannel()).containsExactly(3, 2);
    assertThat(gate.estimatedBytes(0, 3)).as("before any record was sized").isEqualTo(-1);

    // when: the reader took channel 0's batch, and four more records arrived on it
    gate.poll(0);
    gate.put(Batch.of(0, new Object[] {6L, 7L, 8L, 9L}, new long[4]));

    // then: a record in flight is its tag, its timestamp and its serialized form
    long recordBytes = 1 + Long.BYTES + StateSerializer.java().serialize(6L).length;
    assertThat(gate.queuedRecordsByChannel()).containsExactly(4, 2);
    assertThat(gate.estimatedBytes(0, 4)).isEqualTo(4 * recordBytes);
    assertThat(gate.estimatedBytes(1, 2)).as("channel 1 delivered nothing yet").isEqualTo(-1);
  }

  @Test
  void when_batchesArriveFromAnotherProcess_then_theyCountAsQueuedFromArrivalToTheGate()
      throws Exception {
    // given: a gate whose channel 1 comes from another process
    InputGate gate =
        new InputGate(
            2,
            4,
            BarrierOrder.IN_LINE,
            Collections.nCopies(2, null),
            ChannelCredit.fixed(Integer.MAX_VALUE));
    gate.put(Batch.of(0, new Object[] {1L}, new long[1]));

    // when: two batches arrive on channel 1, and the transport puts the first of them
    gate.arriving(1, 3);
    gate.arriving(1, 2);
    assertThat(gate.queuedRecordsByChannel()).containsExactly(1, 5);
    gate.putArrived(Batch.of(1, new Object[] {2L, 3L, 4L}, new long[3]));

    // then: each record counts once, in the gate or on its way to it, until the reader takes it
    assertThat(gate.queuedRecordsByChannel()).containsExactly(1, 5);
    gate.poll(0);
    gate.poll(0);
    assertThat(gate.queuedRecordsByChannel()).containsExactly(0, 2);
  }

  @Test
  void when_aBarrierOvertakes_then_theReadersOutputIsWokenOnceAndOnlyItsAnnouncementIsTaken()
      throws Exception {
    // given: a full gate whose barriers overtake, and a reader that counts its output's wakes
    InputGate gate = overtakingGate(1);
    AtomicInteger wakes = new AtomicInteger();
    gate.whenBarrierOvertakes(wakes::incrementAndGet);
    gate.put(Batch.of(0, new Object[] {1L}, new long[1]));

    // when: a batch of records and the barrier after it arrive on the other channel
    gate.put(Batch.of(1, new Object[] {2L, BARRIER}, new long[2]));

    // then: one wake, and the reader can take the barrier's announcement without taking records
    assertThat(wakes).hasValue(1);
    Batch announcement = gate.pollAnnouncement();
    assertThat(announcement.value(0)).isInstanceOf(StreamEvent.BarrierAnnouncement.class);
    assertThat(gate.pollAnnouncement()).isNull();
    assertThat(gate.queuedRecordsByChannel()).containsExactly(1, 2);
  }

  @Test
  void when_barriersGoInLine_then_theReadersOutputIsNeverWoken() throws Exception {
    InputGate gate =
        new InputGate(
            1,
            4,
            BarrierOrder.IN_LINE,
            Collections.nCopies(1, null),
            ChannelCredit.fixed(Integer.MAX_VALUE));
    AtomicInteger wakes = new AtomicInteger();
    gate.whenBarrierOvertakes(wakes::incrementAndGet);

    gate.put(Batch.of(0, new Object[] {1L, BARRIER}, new long[2]));

    assertThat(wakes).hasValue(0);
    assertThat(gate.pollAnnouncement()).isNull();
  }

  private static InputGate overtakingGate(int capacity) {
    return new InputGate(
        2,
        capacity,
        BarrierOrder.OVERTAKING,
        Collections.nCopies(2, null),
        ChannelCredit.fixed(Integer.MAX_VALUE));
  }
}
