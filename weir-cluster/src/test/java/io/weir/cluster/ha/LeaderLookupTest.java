package io.weir.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.rpc.HostAndPort;
import io.weir.devservers.process.FreePorts;
import io.weir.devservers.zookeeper.ZooKeeperServerRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Looking for the leader while ZooKeeper is out of reach: a task manager that lost its leader waits
 * for the next one for as long as it was told to, also when ZooKeeper itself was killed and comes
 * back in that time, rather than ending on the first lost connection.
 */
class LeaderLookupTest {
  @TempDir Path directory;
  private Process server;

  @AfterEach
  void stopZooKeeper() throws InterruptedException {
    if (server != null) {
      server.destroyForcibly().waitFor();
    }
  }

  @Test
  void when_zooKeeperIsKilledAndRestarted_then_awaitFindsTheLeaderNamedAfterwards()
      throws Exception {
    // given: a client of a server that is then killed
    int port = FreePorts.pick();
    server = startServer(port);
    ZooKeeperAddress address =
        ZooKeeperAddress.parse("the test's ZooKeeper", "zookeeper://127.0.0.1:" + port + "/weir");
    // A short connection timeout: the client gives up on a lost connection after a few seconds.
    ClusterZooKeeper connected =
        await()
            .atMost(Duration.ofSeconds(60))
            .ignoreExceptions()
            .until(
                () ->
                    ClusterZooKeeper.connect(address, Duration.ofSeconds(8), Duration.ofSeconds(1)),
                client -> client != null);
    try (ClusterZooKeeper zooKeeper = connected) {
      server.destroyForcibly().waitFor();

      // when: a lookup waits for a leader while the server is down
      CompletableFuture<LeaderInfo> found =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return new LeaderLookup(zooKeeper).await(1, Duration.ofMinutes(2));
                } catch (Exception e) {
                  throw new CompletionException(e);
                }
              });

      // then: it keeps waiting past the client's own retries of the lost connection
      await()
          .during(Duration.ofSeconds(20))
          .atMost(Duration.ofSeconds(30))
          .until(() -> !found.isDone());

      // when: the server is back and a leader is named
      server = startServer(port);
      LeaderInfo leader = new LeaderInfo(new HostAndPort("127.0.0.1", 6123), 4242, 1);
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptions()
          .until(
              () -> {
                zooKeeper
                    .client()
                    .create()
                    .creatingParentsIfNeeded()
                    .forPath(HaPaths.LEADER, leader.encode());
                return true;
              });

      // then: the waiting lookup returns that leader
      assertThat(found.get(60, TimeUnit.SECONDS)).isEqualTo(leader);
    }
  }

  private Process startServer(int port) throws IOException {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m",
            "-cp",
            System.getProperty("java.class.path"),
            ZooKeeperServerRunner.class.getName(),
            directory.toString(),
            "" + port)
        .redirectErrorStream(true)
        .redirectOutput(
            ProcessBuilder.Redirect.appendTo(directory.resolve("zookeeper.log").toFile()))
        .start();
  }
}
