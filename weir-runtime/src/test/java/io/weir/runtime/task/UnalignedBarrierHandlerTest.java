package io.weir.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.exchange.BarrierOrder;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.ChannelCredit;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.StreamEvent.BarrierAnnouncement;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which records an unaligned checkpoint stores as in flight, with a real gate whose barriers
 * overtake: exactly those taken and not processed, queued or yet to come before each channel's
 * barrier, once each and in order, never one after it (a record after the barrier is emitted again
 * by its restored sender).
 */
class UnalignedBarrierHandlerTest {
  private static final CheckpointBarrier BARRIER = new CheckpointBarrier(5, 0);

  private final InputGate gate =
      new InputGate(
          2,
          16,
          BarrierOrder.OVERTAKING,
          Collections.nCopies(2, null),
          ChannelCredit.fixed(Integer.MAX_VALUE));
  private final InFlightRecords records = new InFlightRecords(gate.serializers());
  private final UnalignedBarrierHandler handler =
      new UnalignedBarrierHandler(gate, records, Duration.ZERO, Clock.systemUTC());
  private final RecordingActions actions = new RecordingActions();

  @Test
  void when_anotherChannelsBarrierIsQueuedBehindItsAnnouncement_then_recordsAfterItAreNotInFlight()
      throws Exception {
    // given: both channels' barriers queued, and channel 1 sent a record after its barrier
    gate.put(batch(0, "a1", BARRIER));
    gate.put(batch(1, "b1", BARRIER));
    gate.put(batch(1, "b2-after-barrier"));

    // when: the task takes channel 0's announcement first, then channel 1's, then the rest
    takeAndHandle();
    takeAndHandle();

    // then
    assertThat(actions.inFlight).isNotNull();
    assertThat(actions.inFlight.get(records.stateName(0))).hasSize(1);
    assertThat(actions.inFlight.get(records.stateName(1)))
        .as("channel 1 holds b1 before its barrier, and nothing after it")
        .hasSize(1);
  }

  @Test
  void when_recordsOfAChannelComeBeforeItsBarrierIsAnnounced_then_theyAreInFlight()
      throws Exception {
    // given: channel 1 has a record queued before its barrier was sent
    gate.put(batch(1, "b1"));
    gate.put(batch(0, "a1", BARRIER));

    // when: the checkpoint switches at channel 0's announcement; channel 1's barrier comes later
    takeAndHandle();
    gate.put(batch(1, "b2", BARRIER));
    takeAndHandle();

    // then
    assertThat(actions.inFlight.get(records.stateName(1))).hasSize(2);
  }

  @Test
  void when_theTaskStopsABatchForAnAnnouncement_then_itsRestIsInFlightFirstAndReleasedNext()
      throws Exception {
    // given: the task took a batch of channel 0 and processed its first record; more of channel 0
    // is queued, and channel 1's barrier is announced
    gate.put(batch(0, "a1", "a2", "a3"));
    Batch taken = takeAndHandle();
    gate.put(batch(0, "a4"));
    gate.put(batch(1, BARRIER));

    // when: the task holds the rest of its batch and takes the announcement, then channel 0's
    // barrier comes
    handler.hold(taken.tail(1));
    takeAndHandle();
    gate.put(batch(0, BARRIER));
    takeAndHandle();

    // then: the rest precedes the queued record in flight, and is the next batch to process
    assertThat(inFlightValues(0)).containsExactly("a2", "a3", "a4");
    assertThat(valuesOf(handler.nextReleased())).containsExactly("a2", "a3");
  }

  @Test
  void when_theRestOfABatchCapturedWhenTakenIsHeld_then_itIsNotCapturedTwice() throws Exception {
    // given: the checkpoint switched to unaligned at channel 1's announcement, and the task took a
    // batch of channel 0 afterwards (captured whole as it was taken)
    gate.put(batch(1, BARRIER));
    takeAndHandle();
    gate.put(batch(0, "a1", "a2", "a3"));
    Batch taken = takeAndHandle();

    // when: channel 0's barrier is announced after the task processed the batch's first record
    gate.put(batch(0, BARRIER));
    handler.hold(taken.tail(1));
    takeAndHandle();

    // then
    assertThat(inFlightValues(0)).containsExactly("a1", "a2", "a3");
  }

  private List<Object> inFlightValues(int channel) throws Exception {
    assertThat(actions.inFlight).as("the checkpoint completed").isNotNull();
    for (Batch batch : records.decode(actions.inFlight, (subtask, input, record) -> true)) {
      if (batch.channel() == channel) {
        return valuesOf(batch);
      }
    }
    return List.of();
  }

  private static List<Object> valuesOf(Batch batch) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      values.add(batch.value(i));
    }
    return values;
  }

  /** Takes the next element from the gate and hands it to the handler as the task's loop does. */
  private Batch takeAndHandle() throws Exception {
    Batch batch = gate.poll(0);
    if (batch.value(0) instanceof BarrierAnnouncement announcement) {
      handler.onAnnouncement(
          batch.channel(), announcement.barrier(), announcement.sequence(), actions);
    } else {
      handler.onTaken(batch);
    }
    return batch;
  }

  private static Batch batch(int channel, Object... values) {
    return Batch.of(channel, values, new long[values.length]);
  }

  private static final class RecordingActions implements BarrierHandler.Actions {
    Map<String, List<byte[]>> inFlight;

    @Override
    public void triggerCheckpoint(CheckpointBarrier barrier) {
      throw new AssertionError("an unaligned checkpoint must not be taken aligned");
    }

    @Override
    public boolean snapshotAheadOfInFlight(CheckpointBarrier barrier) {
      return true;
    }

    @Override
    public void completeWithInFlight(
        long checkpointId, Map<String, List<byte[]>> inFlight, long bytes) {
      this.inFlight = inFlight;
    }

    @Override
    public void abortCheckpoint(long checkpointId, String reason) {
      throw new AssertionError("aborted: " + reason);
    }
  }
}
