package io.weir.lab.overload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a lab job process tells through its REST API ({@code /api/v1/}): its restarts, its sink's
 * records and transactions, and its recent checkpoints. Read by the watch thread only; a process
 * that does not answer (starting, restarting, killed) reads as empty.
 */
final class JobApi {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The job's figures at one look.
   *
   * @param restarts the job's failovers inside its process so far
   * @param sinkRecords records the sink took in since the process started
   * @param oldestTransactionBeginMillis when the sink's oldest open or pending transaction began,
   *     or -1 when it holds none
   * @param maxInFlightBytes the most bytes of records in flight one checkpoint stored so far
   */
  record JobFigures(
      int restarts, long sinkRecords, long oldestTransactionBeginMillis, long maxInFlightBytes) {}

  /** One checkpoint of the job's recent history. */
  record Checkpoint(long id, String status, long triggerMillis, long durationMillis) {
    boolean completed() {
      return status.equals("COMPLETED");
    }

    boolean aborted() {
      return status.equals("ABORTED");
    }
  }

  private final String base;
  private final String sinkUid;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
  private final ObjectMapper json = new ObjectMapper();
  private String jobId;

  /** The API of the job on {@code 127.0.0.1:port} whose sink operator has {@code sinkUid}. */
  JobApi(int port, String sinkUid) {
    this.base = "http://127.0.0.1:" + port + "/api/v1/jobs";
    this.sinkUid = sinkUid;
  }

  Optional<JobFigures> job() {
    return getOfJob("").map(this::figures);
  }

  /** The job's recent checkpoints, newest first; empty when the job does not answer. */
  List<Checkpoint> checkpoints() {
    List<Checkpoint> checkpoints = new ArrayList<>();
    getOfJob("/checkpoints")
        .ifPresent(
            body -> {
              for (JsonNode checkpoint : body.path("checkpoints")) {
                checkpoints.add(
                    new Checkpoint(
                        checkpoint.path("id").asLong(),
                        checkpoint.path("status").asText(""),
                        checkpoint.path("triggerMillis").asLong(),
                        checkpoint.path("durationMillis").asLong()));
              }
            });
    return checkpoints;
  }

  /** {@code resource} of the job, its id asked for once and again after an unanswered request. */
  private Optional<JsonNode> getOfJob(String resource) {
    if (jobId == null) {
      jobId =
          get(base)
              .map(body -> body.path("jobs"))
              .filter(jobs -> jobs.size() > 0)
              .map(jobs -> jobs.get(0).path("id").asText())
              .orElse(null);
    }
    Optional<JsonNode> answer =
        jobId == null ? Optional.empty() : get(base + "/" + jobId + resource);
    if (answer.isEmpty()) {
      jobId = null; // a restarted process may run the job under another id
    }
    return answer;
  }

  private JobFigures figures(JsonNode job) {
    long sinkRecords = 0;
    long oldestBegin = -1;
    long maxInFlight = 0;
    for (JsonNode task : job.path("tasks")) {
      for (JsonNode subtask : task.path("subtasks")) {
        maxInFlight = Math.max(maxInFlight, subtask.path("maxInFlightBytes").asLong());
        for (JsonNode operator : subtask.path("operators")) {
          if (!operator.path("uid").asText().equals(sinkUid)) {
            continue;
          }
          sinkRecords += operator.path("recordsIn").asLong();
          for (JsonNode transaction : operator.path("transactions")) {
            long begin = transaction.path("beginMillis").asLong();
            oldestBegin = oldestBegin < 0 ? begin : Math.min(oldestBegin, begin);
          }
        }
      }
    }
    return new JobFigures(job.path("restarts").asInt(), sinkRecords, oldestBegin, maxInFlight);
  }

  private Optional<JsonNode> get(String url) {
    try {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200
          ? Optional.of(json.readTree(response.body()))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // not answering: starting, restarting or killed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
