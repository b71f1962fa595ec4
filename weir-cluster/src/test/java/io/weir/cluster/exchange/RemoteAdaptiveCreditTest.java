package io.weir.cluster.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import io.weir.api.state.StateSerializer;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.RpcServer;
import io.weir.runtime.exchange.BarrierOrder;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.ChannelCredit;
import io.weir.runtime.exchange.ChannelSelector;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Adaptive in-flight data across the network: a slow receiving task's gate passes its credit to a
 * sender on another task manager with each credit it returns, so that what is in flight to it —
 * across the network, waiting in the receiving task manager and queued in the gate — holds about
 * the target time of its throughput, and an aligned barrier waits behind no more than that. Over a
 * real connection, with the sending task's own record writer.
 */
@Timeout(180)
class RemoteAdaptiveCreditTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 0);
  private static final List<StateSerializer<?>> NO_SERIALIZER = Collections.singletonList(null);
  private static final int BATCH_SIZE = 512;
  private static final int GATE_BATCHES = 4;
  private static final long RECORDS = 16_000;
  private static final long RECORDS_BETWEEN_BARRIERS = 1_000;
  private static final Duration TARGET = Duration.ofMillis(250);

  /**
   * The receiver parks this long a record, so it processes at most two thousand a second: the
   * target holds at most this many records. A loaded machine parks longer, which only lowers it.
   */
  private static final long PARK_NANOS_PER_RECORD = TimeUnit.MICROSECONDS.toNanos(500);

  private static final long TARGET_RECORDS_AT_MOST = TARGET.toNanos() / PARK_NANOS_PER_RECORD;

  /**
   * What full batches hold in flight to the gate: its own, the sender's credits and the batch it
   * fills; those sent before the gate's first measurement drain by half the records.
   */
  private static final long FULL_BATCHES_IN_FLIGHT =
      (GATE_BATCHES + OutboundChannels.CREDITS_PER_CHANNEL + 1L) * BATCH_SIZE;

  private final EventLoopGroup network = EventLoops.create("test-network", 2);
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void shutDown() {
    sampler.shutdownNow();
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_remoteReceiverIsSlow_then_inFlightHoldsAboutTheTarget_andEachRecordArrivesOnce()
      throws Exception {
    // given: a gate with adaptive credit, as a task manager builds it for one remote channel
    InboundGates inbound = new InboundGates();
    InputGate gate =
        new InputGate(
            1,
            GATE_BATCHES,
            BarrierOrder.IN_LINE,
            NO_SERIALIZER,
            ChannelCredit.adaptive(
                TARGET,
                BATCH_SIZE,
                GATE_BATCHES + OutboundChannels.CREDITS_PER_CHANNEL + 1,
                System::nanoTime));
    inbound.register(ATTEMPT, "task-2", 0, gate, NO_SERIALIZER);
    AtomicLong read = new AtomicLong();
    AtomicLong emitted = new AtomicLong();
    Map<Long, Long> recordsAheadOfBarrier = new ConcurrentHashMap<>();
    Map<Long, Long> emittedAtBarrierArrival = new ConcurrentHashMap<>();
    List<Long> ids = new ArrayList<>();
    List<Long> barriers = new ArrayList<>();
    AtomicLong mostQueuedRecords = new AtomicLong();
    AtomicLong mostQueuedBytes = new AtomicLong();
    try (RpcServer server = RpcServer.bind(network, "127.0.0.1", 0, "", Map.of("data", inbound));
        OutboundChannels outbound = new OutboundChannels(ATTEMPT, network, "")) {
      RemoteChannel channel =
          outbound.channel(
              new HostAndPort("127.0.0.1", server.port()),
              "task-2",
              0,
              0,
              new RecordEncoding(null, Set.of(), "sender"));
      RecordWriter writer =
          new RecordWriter(ChannelSelector.forward(0), List.of(channel), 0, BATCH_SIZE);
      Thread sender =
          new Thread(
              () -> send(writer, read, emitted, recordsAheadOfBarrier), "test remote sender");
      // what the dashboard shows of the channel, once the full batches sent before the gate's
      // first measurement drained
      sampler.scheduleAtFixedRate(
          () -> {
            if (read.get() > RECORDS / 2 && emitted.get() < RECORDS) {
              long records = gate.queuedRecordsByChannel()[0];
              mostQueuedRecords.accumulateAndGet(records, Math::max);
              mostQueuedBytes.accumulateAndGet(gate.estimatedBytes(0, records), Math::max);
            }
          },
          0,
          5,
          TimeUnit.MILLISECONDS);

      // when: the receiving task works through its input slower than the sender fills it
      sender.start();
      while (ids.size() < RECORDS) {
        Batch batch = gate.poll(TimeUnit.SECONDS.toNanos(30));
        assertThat(batch).as("a batch within 30 s, after %s records", ids.size()).isNotNull();
        for (int i = 0; i < batch.size(); i++) {
          if (batch.value(i) instanceof CheckpointBarrier barrier) {
            barriers.add(barrier.checkpointId());
            emittedAtBarrierArrival.put(barrier.checkpointId(), emitted.get());
          } else {
            ids.add((Long) batch.value(i));
            LockSupport.parkNanos(PARK_NANOS_PER_RECORD);
            read.incrementAndGet();
          }
        }
      }
      sender.join(TimeUnit.SECONDS.toMillis(30));

      // then: every record arrived once, in order, and so did every aligned barrier
      assertThat(ids).isEqualTo(LongStream.range(0, RECORDS).boxed().toList());
      long checkpoints = (RECORDS - 1) / RECORDS_BETWEEN_BARRIERS;
      assertThat(barriers).isEqualTo(LongStream.rangeClosed(1, checkpoints).boxed().toList());
      // and each barrier arrived while the sender was held back (unheld, it would have emitted
      // every record at once), but for those where the rest fits in full batches' worth
      LongStream.rangeClosed(1, checkpoints)
          .filter(
              checkpoint ->
                  checkpoint * RECORDS_BETWEEN_BARRIERS < RECORDS - FULL_BATCHES_IN_FLIGHT)
          .forEach(
              checkpoint ->
                  assertThat(emittedAtBarrierArrival.get(checkpoint))
                      .as("records emitted when barrier %s arrived", checkpoint)
                      .isLessThan(RECORDS));
      // and once settled, each barrier waited behind about the target's records, not full batches
      List<Long> settled =
          LongStream.rangeClosed(1, checkpoints)
              .filter(checkpoint -> checkpoint * RECORDS_BETWEEN_BARRIERS > RECORDS / 2)
              .mapToObj(recordsAheadOfBarrier::get)
              .toList();
      assertThat(settled)
          .hasSizeGreaterThanOrEqualTo(5)
          .allSatisfy(
              ahead ->
                  assertThat(ahead)
                      .as("records ahead of a barrier (full batches: %s)", FULL_BATCHES_IN_FLIGHT)
                      .isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST));
      // and the channel's figures, as the dashboard reads them, stayed near the target
      long recordBytes = gate.estimatedBytes(0, 1);
      assertThat(recordBytes).isPositive();
      assertThat(mostQueuedRecords.get())
          .isPositive()
          .isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST);
      assertThat(mostQueuedBytes.get())
          .isPositive()
          .isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST * recordBytes);
      assertThat(channel.recordsPerBatch()).isBetween(ChannelCredit.FLOOR, BATCH_SIZE - 1);
    } finally {
      inbound.unregister(ATTEMPT);
    }
  }

  @Test
  void when_batchesWaitForRoomInTheReceivingTaskManager_then_theirChannelCountsThemInFlight()
      throws Exception {
    // given: a gate with room for one batch, and a sender with more batches than its credits
    InboundGates inbound = new InboundGates();
    InputGate gate =
        new InputGate(1, 1, BarrierOrder.IN_LINE, NO_SERIALIZER, ChannelCredit.fixed(100));
    inbound.register(ATTEMPT, "task-2", 0, gate, NO_SERIALIZER);
    try (RpcServer server = RpcServer.bind(network, "127.0.0.1", 0, "", Map.of("data", inbound));
        OutboundChannels outbound = new OutboundChannels(ATTEMPT, network, "")) {
      RemoteChannel channel =
          outbound.channel(
              new HostAndPort("127.0.0.1", server.port()),
              "task-2",
              0,
              0,
              new RecordEncoding(null, Set.of(), "sender"));
      Thread sender =
          new Thread(
              () -> {
                try {
                  for (long first = 0; first < 60; first += 10) {
                    channel.put(batchOf(first, 10));
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "test remote sender");
      sender.start();

      // when: the reader takes the first batch, so that its records are sized
      Batch first = null;
      while (first == null) {
        first = gate.poll(TimeUnit.SECONDS.toNanos(5));
      }

      // then: the gate holds one batch and four wait for room here: all fifty records count
      await().atMost(Duration.ofSeconds(10)).until(() -> gate.queuedRecordsByChannel()[0] == 50);
      sender.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(first.value(0)).isEqualTo(0L);
      assertThat(gate.estimatedBytes(0, 50)).isEqualTo(50 * gate.estimatedBytes(0, 1)).isPositive();
      // and the credits that came back carried the gate's credit
      assertThat(channel.recordsPerBatch()).isEqualTo(100);
    } finally {
      inbound.unregister(ATTEMPT);
    }
  }

  /**
   * Emits the ids with a barrier in line every {@link #RECORDS_BETWEEN_BARRIERS}, noting at each
   * barrier how many records it follows that the reader has yet to process.
   */
  private static void send(
      RecordWriter writer, AtomicLong read, AtomicLong emitted, Map<Long, Long> aheadOfBarrier) {
    try {
      for (long id = 0; id < RECORDS; id++) {
        if (id > 0 && id % RECORDS_BETWEEN_BARRIERS == 0) {
          long checkpoint = id / RECORDS_BETWEEN_BARRIERS;
          aheadOfBarrier.put(checkpoint, id - read.get());
          writer.broadcast(new CheckpointBarrier(checkpoint, 0));
        }
        writer.emit(id, id);
        emitted.incrementAndGet();
      }
      writer.flushAll();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Batch batchOf(long first, int size) {
    Object[] values = new Object[size];
    long[] timestamps = new long[size];
    for (int i = 0; i < size; i++) {
      values[i] = first + i;
      timestamps[i] = first + i;
    }
    return Batch.of(0, values, timestamps);
  }
}
