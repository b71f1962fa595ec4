package io.weir.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import example.gadget.RecordingGadget;
import io.netty.channel.EventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster protocol authenticates before it decodes: a peer without the secret gets no object
 * deserialized, and an authenticated peer only the allowed classes.
 */
class AuthenticateFirstTest {
  private static final String SECRET = "s3cret";

  private final EventLoopGroup network = EventLoops.create("test-network", 2);
  private final List<Object> received = new CopyOnWriteArrayList<>();
  private final MessageHandler echo =
      (connection, message) -> {
        received.add(message);
        connection.send((Serializable) message);
      };

  @AfterEach
  void shutDown() {
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  /** What the connecting side sends, as the old protocol did: a Java-serialized first message. */
  record Hello(String role, Object secret) implements Serializable {}

  @Test
  void when_strangerSendsASerializedGadget_then_nothingIsDeserializedAndTheConnectionCloses()
      throws Exception {
    try (RpcServer server = bindServer()) {
      // given: a gadget as the first message, alone and inside a hello
      int readsBefore = RecordingGadget.READS.get();
      for (Object payload :
          List.of(new RecordingGadget(), new Hello("client", new RecordingGadget()))) {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
          // when: a raw socket sends it in a well-formed frame
          writeFrame(socket, serialized(payload));

          // then: the server closes the connection, having read nothing but a bad handshake
          assertClosedByPeer(socket);
        }
      }
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(2))
          .until(() -> RecordingGadget.READS.get() == readsBefore && received.isEmpty());
    }
  }

  @Test
  void when_strangerAnnouncesAHugeFrame_then_theConnectionClosesAtOnce() throws Exception {
    try (RpcServer server = bindServer();
        Socket socket = new Socket("127.0.0.1", server.port())) {
      // when: a length prefix of 2 GiB minus one, then a trickle of bytes
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.writeInt(Integer.MAX_VALUE);
      out.write(new byte[1024]);
      out.flush();

      // then: closed without waiting for (or buffering) the announced frame
      assertClosedByPeer(socket);
    }
  }

  @Test
  void when_wrongOrMissingSecret_then_refusedWithOneLineNamingTheCause() throws Exception {
    try (RpcServer server = bindServer()) {
      HostAndPort address = new HostAndPort("127.0.0.1", server.port());

      assertThatThrownBy(() -> connect(address, "nope"))
          .isInstanceOf(ClusterConnectException.class)
          .hasMessage("The job manager at " + address + " refused the connection: wrong secret")
          .matches(e -> ((ClusterConnectException) e).isRefusal());
      assertThatThrownBy(() -> connect(address, ""))
          .isInstanceOf(ClusterConnectException.class)
          .hasMessage(
              "The job manager at "
                  + address
                  + " refused the connection: this cluster requires a secret"
                  + " (cluster.secret in conf/weir.yaml or --secret)");
      assertThat(received).isEmpty();
    }
  }

  @Test
  void when_authenticatedPeerSendsAClassOutsideTheAllowlist_then_itIsNotDeserialized()
      throws Exception {
    try (RpcServer server = bindServer()) {
      // given: a peer that knows the secret, and whose messages arrive
      int readsBefore = RecordingGadget.READS.get();
      RpcConnection connection = connect(new HostAndPort("127.0.0.1", server.port()), SECRET);
      connection.sendAndWait(new HostAndPort("allowed", 1));
      await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);

      // when: it sends a gadget
      connection.sendAndWait(new RecordingGadget());

      // then: the allowlist refuses it before its readObject runs, and the connection closes
      await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
      assertThat(RecordingGadget.READS.get()).isEqualTo(readsBefore);
      assertThat(received).containsExactly(new HostAndPort("allowed", 1));
    }
  }

  @Test
  void when_bothKnowTheSecret_then_messagesFlowBothWays() throws Exception {
    List<Object> answers = new CopyOnWriteArrayList<>();
    try (RpcServer server = bindServer()) {
      RpcConnection connection =
          RpcClient.connect(
              network,
              "the job manager",
              new HostAndPort("127.0.0.1", server.port()),
              "client",
              SECRET,
              (from, message) -> answers.add(message));

      connection.send(new ClientMessages.GetJob("0000"));

      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> answers.equals(List.of(new ClientMessages.GetJob("0000"))));
      connection.close();
    }
  }

  private RpcServer bindServer() throws ClusterConnectException {
    return RpcServer.bind(network, "127.0.0.1", 0, SECRET, Map.of("client", echo));
  }

  private RpcConnection connect(HostAndPort address, String secret) throws Exception {
    return RpcClient.connect(
        network, "the job manager", address, "client", secret, (from, message) -> {});
  }

  private static byte[] serialized(Object object) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(object);
    }
    return bytes.toByteArray();
  }

  private static void writeFrame(Socket socket, byte[] payload) throws IOException {
    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
    out.writeInt(payload.length);
    out.write(payload);
    out.flush();
  }

  /** Reads until the peer closes; fails if it sends anything or stays open for 10 s. */
  private static void assertClosedByPeer(Socket socket) throws IOException {
    socket.setSoTimeout(10_000);
    InputStream in = socket.getInputStream();
    try {
      assertThat(in.read()).as("bytes from the server before it closes").isEqualTo(-1);
    } catch (SocketException reset) {
      // a reset is a close too
    }
  }
}
