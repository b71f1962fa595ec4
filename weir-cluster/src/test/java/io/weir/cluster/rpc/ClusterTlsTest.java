package io.weir.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster's connections over mutual TLS with the pair that {@code weir cluster cert} makes. */
class ClusterTlsTest {
  private static final String SECRET = "s3cret";
  private static final String PASSWORD = "store-password";

  @TempDir Path directory;
  private final EventLoopGroup network = EventLoops.create("test-network", 2);

  @AfterEach
  void shutDown() {
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_bothHoldTheClusterKeyStore_then_theyTalkOverTls_andOthersCannotConnect()
      throws Exception {
    // given: the cluster's key pair, and another pair that is not the cluster's
    Path clusterStore = directory.resolve("cluster.p12");
    Path otherStore = directory.resolve("other.p12");
    ClusterCertificate.create(clusterStore, PASSWORD, List.of("node-1.example"));
    ClusterCertificate.create(otherStore, PASSWORD, List.of());
    ClusterTls clusterTls = ClusterTls.fromKeyStore(clusterStore, PASSWORD);
    List<Object> received = new CopyOnWriteArrayList<>();
    MessageHandler echo =
        (connection, message) -> {
          received.add(message);
          connection.send((Serializable) message);
        };

    try (RpcServer server =
        RpcServer.bind(network, "127.0.0.1", 0, SECRET, clusterTls, Map.of("client", echo))) {
      HostAndPort address = new HostAndPort("127.0.0.1", server.port());

      // when: a peer with the cluster's key store connects, messages go both ways
      List<Object> answers = new CopyOnWriteArrayList<>();
      RpcConnection connection =
          RpcClient.connect(
              network,
              "the job manager",
              address,
              "client",
              SECRET,
              clusterTls,
              (from, message) -> answers.add(message));
      connection.send(new ClientMessages.ListJobs());
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> answers.equals(List.of(new ClientMessages.ListJobs())));
      connection.close();

      // then: neither a plaintext peer nor one with another pair gets through, secret or not
      assertThatThrownBy(() -> connect(address, ClusterTls.plaintext()))
          .isInstanceOf(ClusterConnectException.class)
          .hasMessageStartingWith("The job manager at " + address + " failed the handshake");
      assertThatThrownBy(() -> connect(address, ClusterTls.fromKeyStore(otherStore, PASSWORD)))
          .isInstanceOf(ClusterConnectException.class)
          .hasMessageStartingWith("The job manager at " + address + " failed the handshake");
      assertThat(received).containsExactly(new ClientMessages.ListJobs());
    }
  }

  private RpcConnection connect(HostAndPort address, ClusterTls tls) throws Exception {
    return RpcClient.connect(
        network, "the job manager", address, "client", SECRET, tls, (from, message) -> {});
  }
}
