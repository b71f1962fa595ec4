package io.weir.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.KafkaStatus;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The JSON API under {@code /api/v1/}: jobs, one job with its tasks, its checkpoints, its Kafka
 * positions and transactions, and its recovery. Rates (records and blocked time per second) are
 * computed here from two reads of the job's counters.
 */
final class ApiRoutes {
  static final String PREFIX = "/api/v1/";

  private final JobMonitor monitor;
  private final KafkaStatusCache kafka;
  private final ObjectMapper json;
  private final Clock clock;
  private final boolean tokenRequired;
  private final RateTracker rates = new RateTracker();

  ApiRoutes(
      JobMonitor monitor,
      KafkaStatusCache kafka,
      ObjectMapper json,
      Clock clock,
      boolean tokenRequired) {
    this.monitor = monitor;
    this.kafka = kafka;
    this.json = json;
    this.clock = clock;
    this.tokenRequired = tokenRequired;
  }

  /** The answer to {@code GET path}, where path starts with {@link #PREFIX}. */
  Response answer(String path) throws Exception {
    List<String> parts = List.of(path.substring(PREFIX.length()).split("/"));
    if (parts.equals(List.of("jobs"))) {
      ObjectNode body = json.createObjectNode();
      body.set("jobs", json.valueToTree(monitor.jobs()));
      return Response.json(json.writeValueAsBytes(body));
    }
    if (parts.size() < 2 || parts.size() > 3 || !parts.get(0).equals("jobs")) {
      return error(HttpResponseStatus.NOT_FOUND, "No API resource " + path);
    }
    String jobId = parts.get(1);
    String resource = parts.size() == 3 ? parts.get(2) : "";
    Optional<?> answer =
        switch (resource) {
          case "" -> monitor.job(jobId).map(this::withRates);
          case "checkpoints" -> monitor.checkpoints(jobId).map(this::checkpoints);
          case "kafka" ->
              monitor
                  .graph(jobId)
                  .map(graph -> withSinkSubtasks(jobId, kafka.statusOf(jobId, graph)));
          case "recovery" -> monitor.recovery(jobId);
          default -> null;
        };
    if (answer == null) {
      return error(HttpResponseStatus.NOT_FOUND, "No API resource " + path);
    }
    if (answer.isEmpty()) {
      return error(HttpResponseStatus.NOT_FOUND, "No job " + jobId);
    }
    return Response.json(json.writeValueAsBytes(answer.get()));
  }

  /** What the dashboard asks before anything else: whether it must send a token. */
  Response access() throws Exception {
    ObjectNode body = json.createObjectNode();
    body.put("tokenRequired", tokenRequired);
    return Response.json(json.writeValueAsBytes(body));
  }

  Response error(HttpResponseStatus status, String message) {
    ObjectNode body = json.createObjectNode();
    body.put("status", status.code());
    body.put("error", message);
    try {
      return new Response(status, Response.JSON, json.writeValueAsBytes(body));
    } catch (Exception e) {
      return Response.text(status, message);
    }
  }

  private ObjectNode checkpoints(Object timelines) {
    ObjectNode body = json.createObjectNode();
    body.set("checkpoints", json.valueToTree(timelines));
    return body;
  }

  /**
   * The brokers' view of the job's Kafka sources and sinks, each sink with its subtasks' open and
   * pending transactions as they tell them.
   */
  private ObjectNode withSinkSubtasks(String jobId, KafkaStatus status) {
    ObjectNode body = json.valueToTree(status);
    JobDetail job = monitor.job(jobId).orElse(null);
    ArrayNode sinks = (ArrayNode) body.get("sinks");
    long now = clock.millis();
    for (int i = 0; i < status.sinks().size(); i++) {
      List<KafkaSinkSubtasks.Subtask> subtasks =
          job == null ? List.of() : KafkaSinkSubtasks.of(job, status.sinks().get(i), now);
      ((ObjectNode) sinks.get(i)).set("subtasks", json.valueToTree(subtasks));
    }
    return body;
  }

  private ObjectNode withRates(JobDetail job) {
    ObjectNode body = json.valueToTree(job);
    long now = clock.millis();
    ArrayNode tasks = (ArrayNode) body.get("tasks");
    for (int t = 0; t < job.tasks().size(); t++) {
      TaskView task = job.tasks().get(t);
      ArrayNode subtasks = (ArrayNode) tasks.get(t).get("subtasks");
      for (int s = 0; s < task.subtasks().size(); s++) {
        SubtaskView subtask = task.subtasks().get(s);
        String key = job.id() + "/" + task.id() + "/" + subtask.index() + "/";
        ObjectNode node = (ObjectNode) subtasks.get(s);
        node.put("recordsInPerSecond", rates.rate(key + "in", subtask.recordsIn(), now));
        node.put("recordsOutPerSecond", rates.rate(key + "out", subtask.recordsOut(), now));
        // Milliseconds blocked per second: the share of time the subtask waited downstream.
        double blocked = rates.rate(key + "blocked", subtask.blockedOnOutputMillis(), now);
        node.put("backpressureRatio", Math.min(1.0, blocked / 1000.0));
      }
    }
    return body;
  }
}
