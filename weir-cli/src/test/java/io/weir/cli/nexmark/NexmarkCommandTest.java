package io.weir.cli.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.NexmarkJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class NexmarkCommandTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream originalOut;
  private PrintStream originalErr;

  @BeforeEach
  void captureOutput() {
    originalOut = System.out;
    originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreOutput() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }

  @Test
  void when_generateWritesToATopic_then_itHoldsEachEventOnceWithItsEventTime() {
    int exitCode =
        WeirCli.run(
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

    assertThat(exitCode).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("3000 events to topic 'generated'");
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("created topic 'generated'", "written 3,000 of 3,000 events");
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
    int exitCode =
        WeirCli.run("nexmark", "check", "--query", "q1", "--events", "2000", "--rate", "200");

    assertThat(exitCode).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).strip())
        .isEqualTo("q1: rows=1840 matches-sql=true");
  }

  @Test
  void when_theQueryIsNotOneWeirRuns_then_oneLineListsThoseItDoes() {
    int exitCode = WeirCli.run("nexmark", "check", "--query", "q99", "--events", "100");

    assertThat(exitCode).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8).strip())
        .isEqualTo(
            "weir: --query q99 is not a query Weir runs yet; these are: q0, q1, q2, q7, q14, q15,"
                + " q16, q17, q21, q22");
  }

  private static Event event(String json) {
    try {
      return NexmarkJson.event(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
