package io.weir.cli.newproject;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a new user does: {@code weir new}, the project's own build offline against the installed
 * bill of materials (its unit test included), then {@code weir run} of the jar it built against a
 * real broker, and the committed totals counted against the orders.
 */
class NewJobProjectTest {
  private static final int ORDERS = 2_000;
  private static final int CUSTOMERS = 7;

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  @Test
  void when_aNewProjectIsBuiltAndRun_then_everyOrderIsInTheTotalsOnceAndTheTotalsAddUp()
      throws Exception {
    // given: Weir installed as `weir new` installs it, from a copy of this checkout, so that the
    // nested build leaves the target directories of the build running this test alone
    WeirCheckout copy = copyOfThisCheckout(directory.resolve("weir"));
    new WeirInstallation(copy, LocalMavenRepository.ofThisUser(), weirVersion())
        .maybeInstall(System.err);
    assertThat(
            new WeirInstallation(
                    WeirCheckout.ofThisCommandLine(),
                    LocalMavenRepository.ofThisUser(),
                    weirVersion())
                .staleArtifacts())
        .as("artifacts `weir new` would install again")
        .isEmpty();
    // and: the project as `weir new` writes it, built offline with its own tests
    Path project = directory.resolve("orders-job");
    assertThat(WeirCli.run("new", "com.acme:orders-job", "--dir", project.toString())).isZero();
    assertThat(project.resolve("src/main/java/com/acme/ordersjob/OrdersJob.java")).exists();
    buildOffline(project, "verify");
    assertThat(
            project.resolve("target/surefire-reports/TEST-com.acme.ordersjob.RunningTotalTest.xml"))
        .content()
        .contains("tests=\"2\"", "failures=\"0\"", "errors=\"0\"");
    Path jar = project.resolve("target/orders-job-0.1.0-SNAPSHOT.jar");
    // and: JSON orders of a few customers, and their totals computed by a plain loop
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "orders", 2);
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "customer-totals", 2);
    Map<String, Long> expectedTotals = new TreeMap<>();
    Map<String, List<Long>> expectedCounts = new TreeMap<>();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      for (long id = 1; id <= ORDERS; id++) {
        String customer = "customer-" + id % CUSTOMERS;
        long amountCents = id * 37 % 10_000;
        expectedTotals.merge(customer, amountCents, Long::sum);
        List<Long> counts = expectedCounts.computeIfAbsent(customer, c -> new ArrayList<>());
        counts.add(counts.size() + 1L);
        producer.send(
            new ProducerRecord<>(
                "orders",
                String.format(
                    "{\"id\":%d,\"customer\":\"%s\",\"amountCents\":%d}",
                    id, customer, amountCents)));
      }
    }

    // when: the job runs over the orders there are, then finishes
    int exitCode =
        WeirCli.run(
            "run",
            "--no-web",
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString(),
            jar.toString(),
            "--bootstrap",
            kafka.bootstrapServers(),
            "--bounded");

    // then: one total per order, each order once, and each customer's totals add up
    assertThat(exitCode).isZero();
    List<Long> orderIds = new ArrayList<>();
    Map<String, JsonNode> lastTotals = new HashMap<>();
    Map<String, List<Long>> counts = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    for (String value :
        KafkaTestClients.readAll(kafka.bootstrapServers(), "customer-totals", "read_committed")) {
      JsonNode total = json.readTree(value);
      orderIds.add(total.get("lastOrderId").asLong());
      counts
          .computeIfAbsent(total.get("customer").asText(), c -> new ArrayList<>())
          .add(total.get("orders").asLong());
      lastTotals.merge(
          total.get("customer").asText(),
          total,
          (one, other) -> one.get("orders").asLong() > other.get("orders").asLong() ? one : other);
    }
    assertThat(orderIds).hasSize(ORDERS).doesNotHaveDuplicates();
    assertThat(orderIds).allMatch(id -> id >= 1 && id <= ORDERS);
    Map<String, Long> totals = new TreeMap<>();
    lastTotals.forEach((customer, total) -> totals.put(customer, total.get("totalCents").asLong()));
    assertThat(totals).isEqualTo(expectedTotals);
    // each customer's totals counted 1, 2, ..., n orders, each count once: no total was lost or
    // computed twice from a restored state
    counts.values().forEach(customerCounts -> customerCounts.sort(null));
    assertThat(counts).isEqualTo(expectedCounts);
  }

  /** The checkout's sources (no build output, no history) copied to {@code target}. */
  private static WeirCheckout copyOfThisCheckout(Path target) throws IOException {
    Path root = WeirCheckout.ofThisCommandLine().root();
    Set<String> skipped = Set.of("target", ".git", ".weir", "node_modules");
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> noneIn(root, f, skipped)).toList()) {
        Path copy = target.resolve(root.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else if (Files.isRegularFile(file)) {
          Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    return new WeirCheckout(target);
  }

  private static boolean noneIn(Path root, Path file, Set<String> names) {
    for (Path part : root.relativize(file)) {
      if (names.contains(part.toString())) {
        return false;
      }
    }
    return true;
  }

  private static String weirVersion() throws IOException {
    try (InputStream in = NewCommand.class.getResourceAsStream("weir-version.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }

  /** Runs the project's own Maven build offline, as the user would, and fails on its log. */
  private static void buildOffline(Path project, String phase) throws Exception {
    Path log = project.resolve("build.log");
    Process maven =
        new ProcessBuilder("mvn", "-o", "-q", "-B", phase)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertThat(maven.waitFor(15, TimeUnit.MINUTES)).as("mvn %s finished", phase).isTrue();
    assertThat(maven.exitValue()).as(Files.readString(log)).isZero();
  }
}
