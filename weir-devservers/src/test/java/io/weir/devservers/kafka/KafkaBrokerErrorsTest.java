package io.weir.devservers.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.devservers.process.DevServerException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failures before any broker starts: each is one line naming what is wrong. */
class KafkaBrokerErrorsTest {
  @TempDir Path directory;

  @Test
  void when_portInUse_then_oneLineNamesThePort() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();

      assertThatThrownBy(
              () -> KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory).withPort(port)))
          .isInstanceOf(DevServerException.class)
          .hasMessage("cannot start Kafka broker: client port " + port + " on 127.0.0.1 is in use");
    }
  }

  @Test
  void when_javaIsMissing_then_oneLineNamesTheExecutable() {
    Path missingJava = directory.resolve("no-such-java");

    assertThatThrownBy(
            () ->
                KafkaBroker.start(
                    KafkaBrokerConfig.inDirectory(directory).withJavaExecutable(missingJava)))
        .isInstanceOf(KafkaBrokerException.class)
        .hasMessageContaining("no Java executable at " + missingJava)
        .hasMessageNotContaining("\n");
  }

  @Test
  void when_brokerConfigurationIsInvalid_then_messageIsOneLineAndDetailHasTheOutput() {
    // An unknown listener name: the storage tool refuses the configuration.
    KafkaBrokerConfig config =
        KafkaBrokerConfig.inDirectory(directory)
            .withBrokerProperty("inter.broker.listener.name", "NOPE");

    assertThatThrownBy(() -> KafkaBroker.start(config))
        .isInstanceOf(KafkaBrokerException.class)
        .hasMessageStartingWith("cannot start Kafka broker in " + directory)
        .hasMessageNotContaining("\n")
        .satisfies(
            error ->
                org.assertj.core.api.Assertions.assertThat(((KafkaBrokerException) error).detail())
                    .contains("last lines of")
                    .contains("NOPE"));
  }
}
