package io.weir.cli.cluster;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import io.weir.devservers.process.FreePorts;
import java.net.InetAddress;
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

  @Test
  void when_thePortIsTaken_then_theStartSaysSoInOneLineAndStartsNothing() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(FreePorts.HOST))) {
      // given
      int port = taken.getLocalPort();

      // when
      CommandRun start =
          weir("zookeeper", "start", "--dir", directory.toString(), "--port", "" + port);

      // then: refused before any process is spawned, so no pid file is left
      assertThat(start.exitCode()).isEqualTo(1);
      assertThat(start.err())
          .contains("cannot start ZooKeeper: port " + port + " on 127.0.0.1 is in use");
      assertThat(directory.resolve("zookeeper.pid")).doesNotExist();
    }
  }

  private static int freePort() {
    return FreePorts.pick();
  }
}
