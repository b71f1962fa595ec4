package io.weir.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ContinuousFeedTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_stopped_then_itReturnsHowManyRecordsTheTopicHolds() throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "fed", 2);
    ContinuousFeed feed = ContinuousFeed.start(kafka.bootstrapServers(), "fed", 1_000, 0);
    Thread.sleep(500);

    long fed = feed.stop();

    assertThat(fed).isPositive();
    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), "fed", "read_uncommitted"))
        .hasSize((int) fed);
  }

  @Test
  void when_theBrokerRefusesARecord_then_stopFailsNamingIt() throws Exception {
    // Every batch is larger than the topic allows.
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic("too-small", 1, (short) 1)
                      .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "16"))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    ContinuousFeed feed = ContinuousFeed.start(kafka.bootstrapServers(), "too-small", 100, 0);
    Thread.sleep(500);

    assertThatThrownBy(feed::stop)
        .isInstanceOf(LabFailure.class)
        .hasMessageStartingWith("Feeding topic 'too-small' failed: record ")
        .hasMessageContaining("was refused");
  }
}
