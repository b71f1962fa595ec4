package io.weir.cli.nexmark;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.NexmarkJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class NexmarkCommandTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_generateWritesToATopic_then_itHoldsEachEventOnceWithItsEventTime() {
    CommandRun run =
        weir(
            "nexmark",
            "generate",
            "--events",
            "3000",
            "--rate",
            "500",
            "--topic",
            "generated",
            "--bootstrap-servers",
            kafka.bootstrapServers());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("3000 events to topic 'generated'");
    assertThat(run.err()).contains("created topic 'generated'", "written 3,000 of 3,000 events");
    EventGenerator generator =
        new EventGenerator(GeneratorConfig.defaults().withEventsPerSecond(500));
    List<Event> expected = new ArrayList<>();
    for (long position = 0; position < 3000; position++) {
      expected.add(generator.generate(position));
    }
    List<Event> written =
        KafkaTestClients.readAll(kafka.bootstrapServers(), "generated", "read_committed").stream()
            .map(NexmarkCommandTest::event)
            .toList();
    assertThat(written).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void when_checkRunsAQuery_then_itPrintsItsRowsAndThatTheyMatchTheSql() {
    CommandRun run = weir("nexmark", "check", "--query", "q1", "--events", "2000", "--rate", "200");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).isEqualTo("q1: rows=1840 matches-sql=true");
  }

  @Test
  void when_checkRunsQ10_then_itPrintsItsPartitionDirectoriesAndThatTheyMatchTheSql() {
    // 2,000 events at 20 a second of event time span the first two minutes of the base day
    CommandRun run = weir("nexmark", "check", "--query", "q10", "--events", "2000", "--rate", "20");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().strip()).isEqualTo("q10: rows=1840 partitions=2 matches-sql=true");
  }

  @Test
  void when_theQueryIsNotANexmarkQuery_then_oneLineListsThem() {
    CommandRun run = weir("nexmark", "check", "--query", "q99", "--events", "100");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --query q99 is not a Nexmark query; these are: q0, q1, q2, q3, q4, q5, q6, q7,"
                + " q8, q9, q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q20, q21, q22");
  }

  private static Event event(String json) {
    try {
      return NexmarkJson.event(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
