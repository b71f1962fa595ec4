package io.weir.cli.cluster;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir zookeeper start | stop}: a real ZooKeeper server in a process of its own. */
class ZooKeeperCommandTest {
  @TempDir Path directory;

  @Test
  void when_startedInBackground_then_itServesUntilStopped() throws Exception {
    // given
    int port = freePort();
    String dir = directory.toString();
    try {
      // when
      CommandRun start = weir("zookeeper", "start", "--dir", dir, "--port", "" + port);

      // then: it serves, and a second start in the same directory is refused in one line
      assertThat(start.exitCode()).as(start.err()).isZero();
      assertThat(start.out()).startsWith("127.0.0.1:" + port);
      CommandRun again = weir("zookeeper", "start", "--dir", dir, "--port", "" + freePort());
      assertThat(again.exitCode()).isEqualTo(1);
      assertThat(again.err()).contains("a ZooKeeper server is already running in");
    } finally {
      assertThat(weir("zookeeper", "stop", "--dir", dir).out())
          .contains("stopped the ZooKeeper server");
    }
    assertThat(weir("zookeeper", "stop", "--dir", dir).out())
        .contains("no ZooKeeper server is running");
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
