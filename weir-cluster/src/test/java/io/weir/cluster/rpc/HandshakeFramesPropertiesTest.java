package io.weir.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Whatever a stranger sends as its first frames, the server closes the connection without handing
 * any message to a handler.
 */
class HandshakeFramesPropertiesTest {
  private static EventLoopGroup network;
  private static RpcServer server;
  private static final List<Object> delivered = new CopyOnWriteArrayList<>();

  @BeforeContainer
  static void bind() throws ClusterConnectException {
    network = EventLoops.create("test-network", 1);
    server =
        RpcServer.bind(
            network,
            "127.0.0.1",
            0,
            "s3cret",
            Map.of("client", (connection, message) -> delivered.add(message)));
  }

  @AfterContainer
  static void close() {
    server.close();
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Property(tries = 100)
  void when_strangerSendsArbitraryFrames_then_closedWithoutAnyMessageDelivered(
      @ForAll @Size(max = 600) byte[] first, @ForAll @Size(max = 100) byte[] second)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      try {
        for (byte[] frame : List.of(first, second)) {
          out.writeInt(frame.length);
          out.write(frame);
        }
        out.flush();
      } catch (SocketException closedWhileWriting) {
        // the server may close before the second frame arrives
      }
      assertClosedWithoutWelcome(socket.getInputStream());
    }
    assertThat(delivered).isEmpty();
  }

  /** A refusal frame may come first (an unknown role, say); a welcome never does. */
  private static void assertClosedWithoutWelcome(InputStream in) throws IOException {
    try {
      byte[] answer = in.readAllBytes();
      if (answer.length > 4) {
        assertThat(answer[4]).as("the answer's frame type").isNotEqualTo((byte) 4);
      }
    } catch (SocketException reset) {
      // a reset is a close too
    }
  }
}
