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
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.StreamEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With unaligned checkpoints, a barrier sent to a subtask on another task manager overtakes the
 * batches queued for it across the network, and the batch its sender waits to send, over a real
 * connection.
 */
class RemoteOvertakingBarrierTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 0);
  private static final StreamEvent.CheckpointBarrier BARRIER =
      new StreamEvent.CheckpointBarrier(1, 0);
  private final EventLoopGroup network = EventLoops.create("test-network", 2);

  @AfterEach
  void shutDown() {
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_barrierFollowsBatchesWaitingForRoom_then_itIsAnnouncedBeforeAnyIsRead()
      throws Exception {
    // given: a gate with room for one batch that nobody reads yet, and a sender that used up its
    // credits: one batch is in the gate, the others wait on the receiving side
    InboundGates inbound = new InboundGates();
    List<StateSerializer<?>> serializers = Collections.singletonList(null);
    InputGate gate =
        new InputGate(
            1, 1, BarrierOrder.OVERTAKING, serializers, ChannelCredit.fixed(Integer.MAX_VALUE));
    inbound.register(ATTEMPT, "task-2", 0, gate, serializers);
    AtomicInteger sent = new AtomicInteger();
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
                  for (long i = 0; i < 5; i++) {
                    channel.put(Batch.of(0, new Object[] {i}, new long[] {i}));
                    sent.incrementAndGet();
                  }
                  // when: the sender's next batch ends with a barrier
                  channel.put(Batch.of(0, new Object[] {5L, BARRIER}, new long[] {5, 0}));
                  sent.incrementAndGet();
                  for (long i = 6; i < 100; i++) {
                    channel.put(Batch.of(0, new Object[] {i}, new long[] {i}));
                    sent.incrementAndGet();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      sender.start();

      // then: the barrier is sent at once, the batches ahead of it enter the gate beyond its room,
      // and the barrier is announced ahead of them
      await().atMost(Duration.ofSeconds(10)).until(() -> queued(gate) == 6);
      Batch first = poll(gate);
      assertThat(first.value(0)).isInstanceOf(StreamEvent.BarrierAnnouncement.class);
      StreamEvent.BarrierAnnouncement announcement =
          (StreamEvent.BarrierAnnouncement) first.value(0);
      assertThat(announcement.barrier()).isEqualTo(BARRIER);
      assertThat(announcement.sequence()).isEqualTo(6);

      // and every batch still arrives once, in order, the barrier's credit-free batch included
      List<Object> read = new ArrayList<>();
      while (read.size() < 101) {
        Batch batch = poll(gate);
        for (int i = 0; i < batch.size(); i++) {
          read.add(batch.value(i));
        }
      }
      List<Object> expected = new ArrayList<>();
      for (long i = 0; i < 100; i++) {
        expected.add(i);
        if (i == 5) {
          expected.add(BARRIER);
        }
      }
      assertThat(read).isEqualTo(expected);
      sender.join(5_000);
      await().atMost(Duration.ofSeconds(5)).until(() -> sent.get() == 100);
    } finally {
      inbound.unregister(ATTEMPT);
    }
  }

  @Test
  void when_senderWaitingForCreditIsWoken_then_itsBarrierOvertakesTheBatchItHolds()
      throws Exception {
    // given: a gate with room for one batch that nobody reads yet, and a sender that used up its
    // credits
    InboundGates inbound = new InboundGates();
    List<StateSerializer<?>> serializers = Collections.singletonList(null);
    InputGate gate =
        new InputGate(
            1, 1, BarrierOrder.OVERTAKING, serializers, ChannelCredit.fixed(Integer.MAX_VALUE));
    inbound.register(ATTEMPT, "task-2", 0, gate, serializers);
    AtomicInteger sent = new AtomicInteger();
    CompletableFuture<Boolean> takenBeforeWake = new CompletableFuture<>();
    try (RpcServer server = RpcServer.bind(network, "127.0.0.1", 0, "", Map.of("data", inbound));
        OutboundChannels outbound = new OutboundChannels(ATTEMPT, network, "")) {
      RemoteChannel channel =
          outbound.channel(
              new HostAndPort("127.0.0.1", server.port()),
              "task-2",
              0,
              0,
              new RecordEncoding(null, Set.of(), "sender"));
      Batch blocked = Batch.of(0, new Object[] {5L}, new long[] {5});
      Thread sender =
          new Thread(
              () -> {
                try {
                  for (long i = 0; i < 5; i++) {
                    channel.put(Batch.of(0, new Object[] {i}, new long[] {i}));
                    sent.incrementAndGet();
                  }
                  boolean taken = channel.putUnlessWoken(blocked);
                  takenBeforeWake.complete(taken);
                  // The task's checkpoint: the barrier goes alone, then the batch it held.
                  channel.put(Batch.of(0, new Object[] {BARRIER}, new long[] {0}));
                  if (!taken) {
                    channel.putUnlessWoken(blocked);
                  }
                  sent.incrementAndGet();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      sender.start();
      // Five batches with four credits: the first one's credit came back, and no other will
      // while the gate is full.
      await().atMost(Duration.ofSeconds(10)).until(() -> sent.get() == 5);

      // when: a checkpoint comes to the sending task
      channel.wakeSender(0);

      // then: the sender holds the batch it waited to send, and the barrier is announced ahead of
      // every batch that reached the gate
      assertThat(takenBeforeWake.get(10, TimeUnit.SECONDS)).isFalse();
      await().atMost(Duration.ofSeconds(10)).until(() -> queued(gate) == 6);
      Batch first = poll(gate);
      StreamEvent.BarrierAnnouncement announcement =
          (StreamEvent.BarrierAnnouncement) first.value(0);
      assertThat(announcement.sequence()).isEqualTo(6);

      // and the held batch follows the barrier once the gate is read
      List<Object> read = new ArrayList<>();
      while (read.size() < 7) {
        Batch batch = poll(gate);
        for (int i = 0; i < batch.size(); i++) {
          read.add(batch.value(i));
        }
      }
      assertThat(read).containsExactly(0L, 1L, 2L, 3L, 4L, BARRIER, 5L);
      sender.join(5_000);
      assertThat(sent.get()).isEqualTo(6);
    } finally {
      inbound.unregister(ATTEMPT);
    }
  }

  private static int queued(InputGate gate) {
    List<Batch> queued = new ArrayList<>();
    gate.copyQueued(queued);
    return queued.size();
  }

  private static Batch poll(InputGate gate) throws InterruptedException {
    Batch batch = gate.poll(TimeUnit.SECONDS.toNanos(10));
    assertThat(batch).as("a batch within the timeout").isNotNull();
    return batch;
  }
}
