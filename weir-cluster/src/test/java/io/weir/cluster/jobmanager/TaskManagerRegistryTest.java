package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.RpcClient;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.cluster.rpc.RpcServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A task manager that stopped heartbeating leaves the live set as soon as anyone asks for it, not
 * only when the heartbeat timer runs: a job manager woken from a freeze runs its job thread before
 * its late timer, and must not deploy to task managers that left it.
 */
class TaskManagerRegistryTest {
  private static final Duration HEARTBEAT_TIMEOUT = Duration.ofMillis(300);

  private final EventLoopGroup network = EventLoops.create("test-network", 1);
  private final Map<String, RpcConnection> connections = new ConcurrentHashMap<>();

  @AfterEach
  void shutDown() {
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_heartbeatsStopAndTheTimerHasNotRun_then_liveAndFreeSlotsLeaveTheSilentOneOut()
      throws Exception {
    TaskManagerRegistry registry = new TaskManagerRegistry(HEARTBEAT_TIMEOUT, Clock.systemUTC());
    List<String> lost = new CopyOnWriteArrayList<>();
    registry.onLost(lost::add);
    try (RpcServer server =
        RpcServer.bind(network, "127.0.0.1", 0, "", Map.of("taskmanager", (from, message) -> {}))) {
      // given: two task managers, of which only the second keeps heartbeating
      RegisteredTaskManager silent = register(registry, server, "tm-silent");
      RegisteredTaskManager beating = register(registry, server, "tm-beating");
      assertThat(registry.live()).containsExactly(beating, silent);

      // when: the silent one's timeout passes, and no timer checks the heartbeats
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> {
                registry.heartbeat("tm-beating", Map.of());
                return registry.freeSlotsTotal() == 2;
              });

      // then: asked for the live set, the registry declares it lost and leaves it out
      registry.heartbeat("tm-beating", Map.of());
      assertThat(registry.live()).containsExactly(beating);
      assertThat(lost).containsExactly("tm-silent");
      await().atMost(Duration.ofSeconds(10)).until(() -> !connections.get("tm-silent").isOpen());
      assertThat(connections.get("tm-beating").isOpen()).isTrue();
    }
  }

  private RegisteredTaskManager register(TaskManagerRegistry registry, RpcServer server, String id)
      throws Exception {
    RpcConnection connection =
        RpcClient.connect(
            network,
            "the job manager",
            new HostAndPort("127.0.0.1", server.port()),
            "taskmanager",
            "",
            (from, message) -> {});
    connections.put(id, connection);
    RegisteredTaskManager taskManager =
        new RegisteredTaskManager(
            id,
            2,
            new HostAndPort("127.0.0.1", 1),
            ProcessHandle.current().pid(),
            new TaskManagerConnection(connection, 1, () -> true),
            Clock.systemUTC().millis());
    registry.register(taskManager);
    return taskManager;
  }
}
