package io.weir.cli.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.kafka.testing.OpenTransactionsProcess;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code weir kafka transactions --abort-prefix} against a real broker. */
class KafkaTransactionsCommandTest {
  // A broker's start takes seconds on 2 cores, and far longer while other builds share them.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @Test
  void when_abortingByPrefix_then_onlyTheSinkIdsOfThatPrefixAreAborted() throws Exception {
    // given: open transactions of sink orders-v1, of sink orders-v10, and an id of another form
    String topic = "abort-prefix";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(),
            topic,
            2,
            Duration.ofMinutes(5),
            "orders-v1-0-0",
            "orders-v10-0-0",
            "orders-v1-extra")) {
      child.kill();
    }
    // when
    String out =
        weir(
            "kafka",
            "transactions",
            "--bootstrap",
            kafka.bootstrapServers(),
            "--abort-prefix",
            "orders-v1");
    // then
    assertThat(out.strip()).isEqualTo("aborted orders-v1-0-0");
    try (LingeringTransactions transactions =
        new LingeringTransactions(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(transactions.list("orders-v1"))
          .extracting(OpenTransaction::transactionalId)
          .containsExactlyInAnyOrder("orders-v10-0-0", "orders-v1-extra");
      transactions.abortMatching(Pattern.compile("orders-v1.*"));
    }
  }

  private static String weir(String... arguments) {
    CommandRun run = CommandRun.weir(arguments);
    assertThat(run.exitCode()).as(run.err()).isZero();
    return run.out();
  }
}
