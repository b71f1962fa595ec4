package io.weir.devservers.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.devservers.process.FreePorts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A port chosen free and taken by another process before the broker binds it: the broker exits at
 * its start, and the start either tries again on fresh ports or says which port was taken, in the
 * broker's own words.
 */
class KafkaBrokerPortConflictTest {
  @TempDir Path directory;

  @Test
  void when_aChosenPortIsTakenBeforeTheBrokerBindsIt_then_theStartRetriesOnFreshPorts()
      throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(FreePorts.HOST))) {
      // given: the first port chosen is one another socket holds
      AtomicInteger chosen = new AtomicInteger();
      IntSupplier takenFirst =
          () -> chosen.getAndIncrement() == 0 ? taken.getLocalPort() : FreePorts.pick();

      // when
      try (KafkaBroker broker =
          KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory), takenFirst)) {

        // then: it serves on other ports, after a first try that found the port taken
        assertThat(broker.port()).isNotEqualTo(taken.getLocalPort());
        assertThat(chosen.get()).isEqualTo(4);
        assertThat(Files.readString(broker.logFile()))
            .contains("failed to bind to 127.0.0.1:" + taken.getLocalPort());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
          assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
        }
      }
    }
  }

  @Test
  void when_theChosenPortIsTakenAtEveryTry_then_theMessageNamesThePortInTheBrokersWords()
      throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(FreePorts.HOST))) {
      // given: every client port chosen is one another socket holds
      int port = taken.getLocalPort();
      AtomicInteger chosen = new AtomicInteger();
      IntSupplier alwaysTaken =
          () -> {
            chosen.incrementAndGet();
            return port;
          };
      KafkaBrokerConfig config =
          KafkaBrokerConfig.inDirectory(directory).withControllerPort(FreePorts.pick());

      // when / then: three tries, then one line with the broker's own words, and the tail of its
      // log in what a stack trace prints
      assertThatThrownBy(() -> KafkaBroker.start(config, alwaysTaken))
          .isInstanceOf(KafkaBrokerException.class)
          .hasMessageStartingWith(
              "Kafka broker in " + directory + " on 127.0.0.1:" + port + " failed to start")
          .hasMessageContaining("port " + port + " is taken: ")
          .hasMessageContaining("Socket server failed to bind to 127.0.0.1:" + port)
          .hasMessageNotContaining("\n")
          .satisfies(
              failure ->
                  assertThat(failure.toString())
                      .contains("--- last lines of " + directory.resolve("broker.log")));
      assertThat(chosen.get()).isEqualTo(3);
    }
  }
}
