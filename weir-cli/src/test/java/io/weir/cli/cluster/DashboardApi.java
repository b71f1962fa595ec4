package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The REST API of a job manager running in another process (a cluster's, or a local run's), found
 * at the address its log printed, and what the tests expect of it after a recovery.
 */
final class DashboardApi {
  private static final Pattern ADDRESS = Pattern.compile("dashboard: (http://\\S+/)");

  private final String base;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  private DashboardApi(String base) {
    this.base = base;
  }

  /** The API of the process whose output is {@code log}. */
  static DashboardApi printedIn(Path log) throws IOException {
    Matcher address = ADDRESS.matcher(Files.readString(log));
    assertThat(address.find()).as("dashboard address in %s", log).isTrue();
    return new DashboardApi(address.group(1));
  }

  /** The JSON of {@code GET /api/v1/path}, which must answer 200. */
  JsonNode get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "api/v1/" + path))
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return json.readTree(response.body());
  }

  /**
   * The job's recovery view after a halt before a sink's commit: it restored a checkpoint, and each
   * pending transaction of it has a proven outcome; the one whose commit the halt stopped was
   * committed by the recovery, none was aborted.
   */
  void assertRecoveryCommittedTheHaltedTransaction(String jobId) throws Exception {
    JsonNode recovery = get("jobs/" + jobId + "/recovery");
    assertThat(recovery.path("restoredFrom").asText())
        .as(recovery.toString())
        .isEqualTo("checkpoint");
    long restored = recovery.path("checkpointId").asLong();
    assertThat(restored).isPositive();
    JsonNode transactions = recovery.path("transactions");
    assertThat(transactions).as(recovery.toString()).isNotEmpty();
    List<String> outcomes = new ArrayList<>();
    for (JsonNode transaction : transactions) {
      assertThat(transaction.path("sinkName").asText()).startsWith("Sink: ");
      assertThat(transaction.path("checkpointId").asLong()).isBetween(1L, restored);
      assertThat(transaction.path("records").asLong()).isNotNegative();
      assertThat(transaction.path("proof").asText()).isNotEmpty();
      outcomes.add(transaction.path("outcome").asText());
    }
    assertThat(outcomes).contains("COMMITTED").doesNotContain("ABORTED");
    assertThat(recovery.path("explanation").asText())
        .contains("checkpoint " + restored)
        // what `weir inspect` prints for the restored checkpoint
        .contains("source offsets: {foo-")
        .contains("pending transactions (a restore commits them): [checkpoint ")
        .contains("outcome: exactly-once");
  }

  /**
   * The running job's subtasks as {@code GET /api/v1/jobs/{id}} and {@code .../kafka} show them:
   * every subtask of both tasks with its figures, and each Kafka sink subtask's open transaction.
   */
  void assertEverySubtaskAndSinkTransactionShown(String jobId, int parallelism) throws Exception {
    JsonNode tasks = get("jobs/" + jobId).path("tasks");
    assertThat(tasks).hasSize(2);
    for (JsonNode task : tasks) {
      assertThat(task.path("subtasks")).hasSize(parallelism);
    }
    JsonNode sinkSubtasks = get("jobs/" + jobId + "/kafka").at("/sinks/0/subtasks");
    assertThat(sinkSubtasks).hasSize(parallelism);
    for (JsonNode subtask : sinkSubtasks) {
      assertThat(subtask.path("open").path("transactionalId").asText()).isNotEmpty();
    }
  }
}
