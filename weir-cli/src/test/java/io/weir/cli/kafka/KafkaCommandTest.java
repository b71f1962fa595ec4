package io.weir.cli.kafka;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import io.weir.devservers.kafka.KafkaCluster;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir kafka start | topics | transactions | stop} against a real broker. */
class KafkaCommandTest {
  @TempDir Path directory;

  @Test
  void when_startedInBackground_then_topicsTransactionsAndStopWork() throws Exception {
    int port = freePort();
    String bootstrap = "127.0.0.1:" + port;
    try {
      // when
      CommandRun start = weir("kafka", "start", "--dir", directory.toString(), "--port", "" + port);

      // then
      assertThat(start.exitCode()).isZero();
      assertThat(start.out()).startsWith(bootstrap);
      assertThat(weir("kafka", "start", "--dir", directory.toString()).exitCode()).isEqualTo(1);
      CommandRun topics = weir("kafka", "topics", "--bootstrap", bootstrap);
      assertThat(topics.exitCode()).isZero();
      assertThat(topics.out()).contains("PARTITIONS");
      CommandRun transactions = weir("kafka", "transactions", "--bootstrap", bootstrap);
      assertThat(transactions.out()).contains("no open transactions");
    } finally {
      CommandRun stop = weir("kafka", "stop", "--dir", directory.toString());
      assertThat(stop.out()).contains("stopped the Kafka broker at " + bootstrap);
    }
    assertThat(weir("kafka", "stop", "--dir", directory.toString()).out())
        .contains("no Kafka broker is running");
  }

  @Test
  void when_startedWithThreeBrokers_then_topicsWorkAndStopEndsEveryBroker() {
    String dir = directory.toString();
    try {
      // when
      CommandRun start = weir("kafka", "start", "--brokers", "3", "--port", "0", "--dir", dir);

      // then
      assertThat(start.exitCode()).as(start.err()).isZero();
      String bootstrap = start.out().lines().findFirst().orElseThrow();
      assertThat(bootstrap.split(",")).hasSize(3).allMatch(address -> address.startsWith("127."));
      assertThat(KafkaCluster.running(directory)).hasSize(3);
      CommandRun again = weir("kafka", "start", "--brokers", "3", "--dir", dir);
      assertThat(again.exitCode()).isEqualTo(1);
      assertThat(again.err()).contains("a Kafka cluster is already running in");
      CommandRun topics = weir("kafka", "topics", "--bootstrap", bootstrap);
      assertThat(topics.exitCode()).as(topics.err()).isZero();
    } finally {
      CommandRun stop = weir("kafka", "stop", "--dir", dir);
      assertThat(stop.out().lines().filter(line -> line.startsWith("stopped the Kafka broker at")))
          .hasSize(3);
    }
    assertThat(KafkaCluster.running(directory)).isEmpty();
    assertThat(weir("kafka", "stop", "--dir", dir).out()).contains("no Kafka broker is running");
  }

  @Test
  void when_twoBrokersAreAsked_then_oneLineErrorNamesTheOption() {
    CommandRun result = weir("kafka", "start", "--brokers", "2", "--dir", directory.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err().strip())
        .startsWith("weir: option --brokers takes 1, or 3 or more")
        .doesNotContain("\n");
  }

  @Test
  void when_bootstrapIsUnreachable_then_oneLineErrorNamesTheAddress() throws Exception {
    String address = "127.0.0.1:" + freePort();

    CommandRun result = weir("kafka", "transactions", "--bootstrap", address);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err().strip())
        .startsWith("weir: no Kafka broker answered at " + address)
        .doesNotContain("\n");
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
