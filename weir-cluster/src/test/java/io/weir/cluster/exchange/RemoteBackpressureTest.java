package io.weir.cluster.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.RpcServer;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A sender to a subtask on another task manager, over a real connection. */
class RemoteBackpressureTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 0);
  private final EventLoopGroup network = EventLoops.create("test-network", 2);

  @AfterEach
  void shutDown() {
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_receiverDoesNotRead_then_senderBlocksAfterBoundedBatches_andResumesWhenItReads()
      throws Exception {
    // given: a receiving gate with room for one batch that nobody reads yet
    InboundGates inbound = new InboundGates();
    InputGate gate = new InputGate(1, 1);
    inbound.register(ATTEMPT, "task-2", 0, gate, Collections.singletonList(null));
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
                  for (long i = 0; i < 100; i++) {
                    channel.put(Batch.of(0, new Object[] {i}, new long[] {i}));
                    sent.incrementAndGet();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      sender.start();

      // then: 4 credits plus the one batch that entered the gate and returned its credit
      await().atMost(Duration.ofSeconds(10)).until(() -> sent.get() == 5);
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(2))
          .until(() -> sent.get() == 5);

      // when: the receiver reads, the sender goes on, and every batch arrives in order
      for (long expected = 0; expected < 100; expected++) {
        Batch batch = null;
        while (batch == null) {
          batch = gate.poll(TimeUnit.SECONDS.toNanos(5));
        }
        assertThat(batch.value(0)).isEqualTo(expected);
      }
      sender.join(5_000);
      assertThat(sent.get()).isEqualTo(100);
    } finally {
      inbound.unregister(ATTEMPT);
    }
  }
}
