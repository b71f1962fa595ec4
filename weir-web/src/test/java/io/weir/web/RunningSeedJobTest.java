package io.weir.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The REST API, metrics and dashboard of a local run, against the seed job running on a real
 * broker: values, not only status codes. One broker and one job for every test here.
 */
class RunningSeedJobTest {
  static final long RECORDS = 2_000;
  static final Duration PATIENCE = Duration.ofSeconds(60);

  // A broker starts in seconds on an idle machine; allow for a busy one.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofSeconds(180)));

  static SeedJobOnBroker seed;
  static Path checkpoints;

  @BeforeAll
  static void startJob() throws Exception {
    checkpoints = Files.createTempDirectory("weir-web-test-");
    seed = new SeedJobOnBroker(kafka.bootstrapServers(), checkpoints, "");
    seed.produce(0, RECORDS);
    // Every record read and committed by a completed checkpoint.
    await().atMost(PATIENCE).until(() -> sinkRecords(seed.json("/api/v1/jobs/local-1")) == RECORDS);
  }

  @AfterAll
  static void stopJob() {
    if (seed != null) {
      seed.close();
    }
  }

  static long sinkRecords(JsonNode job) {
    long sum = 0;
    for (JsonNode subtask : job.at("/tasks/1/subtasks")) {
      sum += subtask.get("recordsOut").asLong();
    }
    return sum;
  }

  @Test
  void when_jobRuns_then_theJobListShowsItRunningWithItsLastCompletedCheckpoint() throws Exception {
    // when
    JsonNode jobs = seed.json("/api/v1/jobs").get("jobs");
    // then
    assertThat(jobs).hasSize(1);
    JsonNode job = jobs.get(0);
    assertThat(job.get("id").asText()).isEqualTo("local-1");
    assertThat(job.get("name").asText()).isEqualTo("seed");
    assertThat(job.get("status").asText()).isEqualTo("RUNNING");
    assertThat(job.get("startMillis").asLong()).isPositive();
    assertThat(job.get("lastCompletedCheckpoint").asLong()).isPositive();
  }

  @Test
  void when_jobRuns_then_itsDetailShowsTwoTasksTheirChainsAndEveryRecordCounted() throws Exception {
    // when
    JsonNode job = seed.json("/api/v1/jobs/local-1");
    // then: the seed's plan, source then keyed map chained with the sink
    JsonNode tasks = job.get("tasks");
    assertThat(tasks).hasSize(2);
    assertThat(names(tasks.get(0).get("operators"))).containsExactly("Source: Example Source");
    assertThat(names(tasks.get(1).get("operators"))).containsExactly("Map", "Sink: Example Sink");
    assertThat(tasks.get(1).get("operators").get(1).get("role").asText()).isEqualTo("sink");
    long read = 0;
    for (JsonNode task : tasks) {
      assertThat(task.get("parallelism").asInt()).isEqualTo(2);
      assertThat(task.get("subtasks")).hasSize(2);
      for (JsonNode subtask : task.get("subtasks")) {
        assertThat(subtask.get("state").asText()).isEqualTo("RUNNING");
        assertThat(subtask.has("recordsInPerSecond")).isTrue();
        assertThat(subtask.get("backpressureRatio").asDouble()).isBetween(0.0, 1.0);
        assertThat(subtask.get("blockedOnOutputMillis").asLong()).isNotNegative();
      }
    }
    for (JsonNode subtask : tasks.get(0).get("subtasks")) {
      read += subtask.get("recordsOut").asLong();
      assertThat(subtask.get("inputChannels")).as("a source has no input").isEmpty();
    }
    // a channel from each source subtask into each map subtask, with its credit
    for (JsonNode subtask : tasks.get(1).get("subtasks")) {
      JsonNode channels = subtask.get("inputChannels");
      assertThat(names(channels, "channel")).containsExactly("0", "1");
      for (JsonNode channel : channels) {
        assertThat(channel.get("queuedRecords").asLong()).isNotNegative();
        assertThat(channel.get("queuedBytes").asLong()).isGreaterThanOrEqualTo(-1);
        assertThat(channel.get("creditRecords").asInt()).isBetween(16, 512);
      }
    }
    assertThat(read).isEqualTo(RECORDS);
    assertThat(sinkRecords(job)).isEqualTo(RECORDS);
    assertThat(job.get("restarts").asInt()).isZero();
    assertThat(job.get("lastFailure").isNull()).isTrue();
  }

  @Test
  void when_checkpointCompleted_then_itsTimelineHasEveryStepInProtocolOrder() throws Exception {
    // when: the newest checkpoint whose notifications every subtask handled
    JsonNode checkpoint = awaitFullyNotifiedCheckpoint();
    // then
    long trigger = checkpoint.get("triggerMillis").asLong();
    long metadata = checkpoint.get("metadataMillis").asLong();
    long notified = checkpoint.get("notifiedMillis").asLong();
    assertThat(checkpoint.get("kind").asText()).isEqualTo("checkpoint");
    assertThat(checkpoint.get("status").asText()).isEqualTo("COMPLETED");
    assertThat(checkpoint.get("subtasks")).hasSize(4);
    for (JsonNode step : checkpoint.get("subtasks")) {
      long ack = step.get("ackMillis").asLong();
      assertThat(step.get("barrierMillis").asLong()).isBetween(trigger, ack);
      assertThat(step.get("alignmentMillis").asLong()).isNotNegative();
      assertThat(ack).isBetween(trigger, metadata);
      assertThat(step.get("sizeBytes").asLong()).isPositive();
      for (JsonNode notification : step.get("notifications")) {
        assertThat(notification.get("startMillis").asLong()).isGreaterThanOrEqualTo(metadata);
      }
    }
    assertThat(notified).isGreaterThanOrEqualTo(metadata);
    // The sink's task tells its chain tail first: the sink commits, then the map hears of it.
    JsonNode sinkSide = checkpoint.get("subtasks").get(2);
    assertThat(sinkSide.get("taskName").asText()).isEqualTo("Map -> Sink: Example Sink");
    JsonNode notifications = sinkSide.get("notifications");
    assertThat(names(notifications, "operatorName")).containsExactly("Sink: Example Sink", "Map");
    assertThat(notifications.get(0).get("sink").asBoolean()).isTrue();
    assertThat(notifications.get(0).get("outcome").asText()).isEqualTo("COMMITTED");
    assertThat(notifications.get(1).get("outcome").asText()).isEqualTo("NOTIFIED");
    assertThat(notifications.get(1).get("startMillis").asLong())
        .isGreaterThanOrEqualTo(notifications.get(0).get("endMillis").asLong());
  }

  @Test
  void when_everyRecordWasRead_then_kafkaShowsEachPartitionAtItsEndAndTheSinksTransactions()
      throws Exception {
    // then: the group's committed positions reach the ends once a checkpoint covers them
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              JsonNode kafkaStatus = seed.json("/api/v1/jobs/local-1/kafka");
              JsonNode partitions = kafkaStatus.path("partitions");
              assertThat(partitions).hasSize(SeedJobOnBroker.PARTITIONS);
              long ends = 0;
              for (JsonNode partition : partitions) {
                assertThat(partition.path("topic").asText()).isEqualTo("foo");
                assertThat(partition.path("group").asText()).isEqualTo("weir-seed");
                assertThat(partition.path("lag").asLong()).isZero();
                assertThat(partition.path("position").asLong())
                    .isEqualTo(partition.path("endOffset").asLong());
                ends += partition.path("endOffset").asLong();
              }
              assertThat(ends).isEqualTo(RECORDS);
            });
    JsonNode sinks = seed.json("/api/v1/jobs/local-1/kafka").path("sinks");
    assertThat(sinks).hasSize(1);
    assertThat(sinks.get(0).path("topic").asText()).isEqualTo("bar");
    assertThat(sinks.get(0).path("transactionalIdPrefix").asText()).isEqualTo("weir-seed");
    for (JsonNode transaction : sinks.get(0).path("transactions")) {
      assertThat(transaction.path("transactionalId").asText()).startsWith("weir-seed-");
      assertThat(transaction.path("subtask").asInt()).isBetween(0, 1);
      assertThat(transaction.path("producerId").asLong()).isNotNegative();
    }
    // Each sink subtask, as it tells it: an open transaction and those pending until their
    // checkpoint's notification; once idle, every record is in a committed one.
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              JsonNode subtasks = seed.json("/api/v1/jobs/local-1/kafka").at("/sinks/0/subtasks");
              assertThat(subtasks).hasSize(2);
              for (JsonNode subtask : subtasks) {
                JsonNode open = subtask.path("open");
                assertThat(open.path("transactionalId").asText()).startsWith("weir-seed-");
                assertThat(open.path("checkpointId").isNull()).isTrue();
                assertThat(open.path("ageMillis").asLong()).isNotNegative();
                assertThat(open.path("records").asLong()).isZero();
                for (JsonNode pending : subtask.path("pending")) {
                  assertThat(pending.path("checkpointId").asLong()).isPositive();
                  assertThat(pending.path("records").asLong()).isNotNegative();
                }
              }
            });
  }

  @Test
  void when_jobStartedFresh_then_recoveryShowsNothingRestored() throws Exception {
    JsonNode recovery = seed.json("/api/v1/jobs/local-1/recovery");
    assertThat(recovery.get("restoredFrom").asText()).isEqualTo("nothing");
    assertThat(recovery.get("attempt").asInt()).isZero();
    assertThat(recovery.get("checkpointId").isNull()).isTrue();
    assertThat(recovery.get("explanation").asText())
        .startsWith("A fresh start: sources begin at their configured start positions");
  }

  @Test
  void when_jobIsUnknown_then_theApiAnswers404NamingIt() throws Exception {
    var response = seed.get("/api/v1/jobs/nope/checkpoints", null);
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).contains("No job nope");
  }

  @Test
  void when_scraped_then_recordsCheckpointsAndKafkaAreExposedInPrometheusFormat() throws Exception {
    awaitFullyNotifiedCheckpoint();
    // when
    var response = seed.get("/metrics", null);
    // then
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    String metrics = response.body();
    assertThat(sum(metrics, "weir_operator_records_in_total", "operator=\"Map\""))
        .isEqualTo(RECORDS);
    assertThat(sum(metrics, "weir_operator_records_in_total", "operator=\"Sink: Example Sink\""))
        .isEqualTo(RECORDS);
    assertThat(sum(metrics, "weir_checkpoint_duration_seconds_count", "job_name=\"seed\""))
        .isPositive();
    assertThat(
            sum(
                metrics,
                "weir_sink_commit_latency_seconds_count",
                "operator=\"Sink: Example Sink\""))
        .isPositive();
    assertThat(metrics).contains("weir_checkpoint_alignment_seconds_bucket");
    assertThat(metrics).contains("weir_checkpoint_size_bytes_sum");
    assertThat(metrics).contains("weir_subtask_backpressured_seconds_total");
    assertThat(metrics)
        .contains("weir_channel_in_flight_records{")
        .contains("weir_channel_credit_records{");
    assertThat(sum(metrics, "weir_channel_credit_records", "task=\"Map -> Sink: Example Sink\""))
        .as("two channels into each of two map subtasks")
        .isBetween(4 * 16.0, 4 * 512.0);
    assertThat(metrics).contains("weir_job_restarts_total{");
    assertThat(sum(metrics, "weir_job_restarts_total", "job_name=\"seed\"")).isZero();
    assertThat(sum(metrics, "weir_kafka_transactions", "state=\"open\"")).isEqualTo(2);
    assertThat(metrics).contains("state=\"pending\"");
    // The Kafka clients' own figures, read through metrics() with no JMX reporter in the clients:
    // the sink's producers sent the job's records and, in each transaction that held records, its
    // marker (the job is idle now, so no more markers come).
    long markers = markerRecords();
    assertThat(markers).isPositive();
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                scraped(
                        "weir_operator_kafka_producer_records_sent",
                        "operator=\"Sink: Example Sink\"")
                    == RECORDS + markers);
    // The REST API carries the same gauges with each operator's counts.
    long sentByRest = 0;
    for (JsonNode subtask : seed.json("/api/v1/jobs/local-1").at("/tasks/1/subtasks")) {
      for (JsonNode operator : subtask.get("operators")) {
        sentByRest += operator.at("/gauges/kafka_producer_records_sent").asLong(0);
      }
    }
    assertThat(sentByRest).isEqualTo(RECORDS + markers);
    assertThat(sum(metrics, "weir_operator_kafka_producer_records_failed", "job_name=\"seed\""))
        .isZero();
    assertThat(sum(metrics, "weir_operator_kafka_consumer_bytes_read", "job_name=\"seed\""))
        .isPositive();
    await()
        .atMost(PATIENCE)
        .until(() -> scraped("weir_kafka_source_lag_records", "topic=\"foo\"") == 0);
  }

  @Test
  void when_dashboardIsOpened_then_itShowsTheChainsACheckpointTimelineAndAnUpdatingLagChart()
      throws Exception {
    awaitFullyNotifiedCheckpoint();
    Path profile = Files.createTempDirectory("weir-chromium-");
    ChromeDriver browser = HeadlessChromium.start(profile);
    try {
      // when
      browser.get(seed.url("/#/jobs/local-1"));
      // The page redraws as the job moves on: elements are looked up afresh in every check.
      WebDriverWait wait = new WebDriverWait(browser, PATIENCE);
      wait.ignoring(StaleElementReferenceException.class);
      // then: two tasks, the source alone and the map chained with the sink
      List<WebElement> tasks =
          wait.until(
              ExpectedConditions.numberOfElementsToBe(By.cssSelector("#task-graph .task"), 2));
      assertThat(operatorsOf(tasks.get(0))).containsExactly("Source: Example Source");
      assertThat(operatorsOf(tasks.get(1))).containsExactly("Map", "Sink: Example Sink");
      // each sink subtask's open transaction, as the subtask tells it
      wait.until(
          driver ->
              Boolean.TRUE.equals(
                  ((JavascriptExecutor) driver)
                      .executeScript(
                          "return [...document.querySelectorAll("
                              + "'#kafka-sink-transactions td.stage')]"
                              + ".filter(cell => cell.textContent === 'open').length === 2;")));
      // a completed checkpoint: an ack from each of the 4 subtasks and both sink subtasks' commits
      // Read in one script: the timeline follows the newest checkpoint and is redrawn often.
      wait.until(
          driver ->
              Boolean.TRUE.equals(
                  ((JavascriptExecutor) driver)
                      .executeScript(
                          "const t = document.getElementById('checkpoint-timeline');"
                              + " return !!t && t.dataset.status === 'COMPLETED'"
                              + " && t.querySelectorAll('circle.ack').length === 4"
                              + " && t.querySelectorAll('circle.metadata').length === 1"
                              + " && t.querySelectorAll('rect.commit').length === 2"
                              + " && t.textContent.includes('Sink: Example Sink committed');")));
      // beside the timeline, the completed checkpoints' durations, the newest as the API has it
      wait.until(
          driver -> {
            WebElement durations = driver.findElement(By.id("checkpoint-durations-chart"));
            return Integer.parseInt(durations.getAttribute("data-points")) >= 1
                && durations.getAttribute("data-last").equals(newestCompletedDuration());
          });
      assertThat(browser.findElements(By.cssSelector("#checkpoint-durations-chart canvas")))
          .isNotEmpty();
      // what each of the map's input channels holds in flight, named by its sender
      wait.until(
          driver ->
              Boolean.TRUE.equals(
                  ((JavascriptExecutor) driver)
                      .executeScript(
                          "const rows = [...document.querySelectorAll('#in-flight tr.channel-row')];"
                              + " return rows.length === 4 && rows.filter(row =>"
                              + " row.textContent.includes('Source: Example Source #1')).length"
                              + " === 2;")));
      assertThat(browser.findElements(By.cssSelector("#in-flight-chart canvas"))).isNotEmpty();
      // the recovery view, with its explanation
      wait.until(
          ExpectedConditions.textToBePresentInElementLocated(
              By.id("recovery-explanation"), "A fresh start"));
      // the lag chart updates, and shows the new input's lag going back to 0
      WebElement lag = browser.findElement(By.id("lag-chart"));
      int pointsBefore = Integer.parseInt(lag.getAttribute("data-points"));
      seed.produce(RECORDS, RECORDS + 500);
      wait.until(driver -> Integer.parseInt(lag.getAttribute("data-points")) >= pointsBefore + 3);
      wait.until(
          driver ->
              Integer.parseInt(lag.getAttribute("data-points")) > pointsBefore + 3
                  && lag.getAttribute("data-last").equals("0"));
      assertThat(lag.findElements(By.tagName("canvas"))).isNotEmpty();
      Path screenshot = Path.of("target", "dashboard-job.png");
      Files.createDirectories(screenshot.getParent());
      Files.write(screenshot, browser.getScreenshotAs(OutputType.BYTES));
      assertThat(Files.size(screenshot)).isPositive();
    } finally {
      browser.quit();
    }
  }

  private static List<String> operatorsOf(WebElement task) {
    return task.findElements(By.cssSelector(".operator")).stream()
        .map(WebElement::getText)
        .toList();
  }

  /** The duration of the newest completed checkpoint, as the REST API has it now. */
  private static String newestCompletedDuration() {
    try {
      for (JsonNode checkpoint : seed.json("/api/v1/jobs/local-1/checkpoints").get("checkpoints")) {
        if (checkpoint.get("status").asText().equals("COMPLETED")) {
          return checkpoint.get("durationMillis").asText();
        }
      }
      return "";
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("The checkpoints of local-1 could not be read", e);
    }
  }

  static JsonNode awaitFullyNotifiedCheckpoint() {
    AtomicReference<JsonNode> found = new AtomicReference<>();
    await()
        .atMost(PATIENCE)
        .until(
            () -> {
              for (JsonNode checkpoint :
                  seed.json("/api/v1/jobs/local-1/checkpoints").get("checkpoints")) {
                if (checkpoint.get("status").asText().equals("COMPLETED")
                    && allNotified(checkpoint)) {
                  found.set(checkpoint);
                  return true;
                }
              }
              return false;
            });
    return found.get();
  }

  private static boolean allNotified(JsonNode checkpoint) {
    for (JsonNode step : checkpoint.get("subtasks")) {
      if (step.get("notifications").size() < step.get("taskName").asText().split(" -> ").length) {
        return false;
      }
    }
    return true;
  }

  static List<String> names(JsonNode array) {
    return names(array, "name");
  }

  static List<String> names(JsonNode array, String field) {
    List<String> names = new ArrayList<>();
    array.forEach(node -> names.add(node.get(field).asText()));
    return names;
  }

  /** The marker records in the sink's marker topic, committed or not. */
  static long markerRecords() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      long markers = 0;
      for (String topic : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
        if (topic.startsWith("weir-markers.")) {
          markers +=
              KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_uncommitted").size();
        }
      }
      return markers;
    }
  }

  /** {@link #sum} of a scrape made now. */
  static double scraped(String metric, String label) throws Exception {
    return sum(seed.get("/metrics", null).body(), metric, label);
  }

  /** The sum of every sample of {@code metric} whose labels contain {@code label}. */
  static double sum(String metrics, String metric, String label) {
    double sum = 0;
    for (String line : metrics.split("\n")) {
      if (line.startsWith(metric + "{") && line.contains(label)) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }
}
