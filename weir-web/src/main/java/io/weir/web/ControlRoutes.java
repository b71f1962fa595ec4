package io.weir.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.weir.runtime.monitor.JobControl;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The API's two requests that change a job, as {@code weir stop} and {@code weir cancel} send them
 * to a local run: {@code POST /api/v1/jobs/ID/stop} with {@code {"targetDirectory": DIR}} (stop
 * with a savepoint; the job ends FINISHED), and {@code POST /api/v1/jobs/ID/cancel}, with a target
 * directory (cancel with a savepoint; the job ends CANCELED) or without (a plain cancel). Each
 * answers once the job has ended: {@code {"jobId", "state", "savepoint"}}.
 *
 * <p>The body must be JSON ({@code Content-Type: application/json}): a browser sends such a request
 * to another origin only after a preflight this server never grants, so a web page cannot stop a
 * job behind the user's back.
 */
final class ControlRoutes {
  /** As long as a cluster's job manager waits for a stop with savepoint. */
  private static final long STOP_TIMEOUT_SECONDS = 120;

  private final JobControl control;
  private final ApiRoutes api;
  private final ObjectMapper json;

  ControlRoutes(JobControl control, ApiRoutes api, ObjectMapper json) {
    this.control = control;
    this.api = api;
    this.json = json;
  }

  /** The answer to {@code POST path}, where path starts with {@link ApiRoutes#PREFIX}. */
  Response answer(String path, String contentType, byte[] body) throws Exception {
    List<String> parts = List.of(path.substring(ApiRoutes.PREFIX.length()).split("/"));
    if (parts.size() != 3
        || !parts.get(0).equals("jobs")
        || !List.of("stop", "cancel").contains(parts.get(2))) {
      return api.error(HttpResponseStatus.NOT_FOUND, "No API request POST " + path);
    }
    if (contentType == null || !contentType.startsWith("application/json")) {
      return api.error(
          HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
          "POST " + path + " takes a JSON body (Content-Type: application/json)");
    }
    Optional<Path> target;
    try {
      target = targetDirectory(body);
    } catch (IOException | IllegalArgumentException e) {
      return api.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
    }
    String jobId = parts.get(1);
    boolean stop = parts.get(2).equals("stop");
    if (stop && target.isEmpty()) {
      return api.error(
          HttpResponseStatus.BAD_REQUEST, "A stop needs a savepoint directory: targetDirectory");
    }
    if (target.isEmpty()) {
      return ended(jobId, control.cancel(jobId), state -> state, null);
    }
    JobControl.SavepointEnd end =
        stop ? JobControl.SavepointEnd.STOP : JobControl.SavepointEnd.CANCEL;
    return ended(
        jobId,
        control.stopWithSavepoint(jobId, target.get(), end),
        savepoint -> stop ? "FINISHED" : "CANCELED",
        savepoint -> savepoint.toString());
  }

  private Optional<Path> targetDirectory(byte[] body) throws IOException {
    if (body.length == 0) {
      return Optional.empty();
    }
    JsonNode request = json.readTree(body);
    JsonNode target = request == null ? null : request.get("targetDirectory");
    if (target == null || target.isNull()) {
      return Optional.empty();
    }
    Path directory = Path.of(target.asText());
    if (!directory.isAbsolute()) {
      throw new IllegalArgumentException(
          "targetDirectory must be an absolute path (the job's process has its own working"
              + " directory): "
              + target.asText());
    }
    return Optional.of(directory);
  }

  /** Waits for the job to end and says how; a failure is a conflict with the job's state. */
  private <T> Response ended(
      String jobId,
      Optional<CompletableFuture<T>> request,
      Function<T, String> state,
      Function<T, String> savepoint)
      throws Exception {
    if (request.isEmpty()) {
      return api.error(HttpResponseStatus.NOT_FOUND, "No job " + jobId);
    }
    T outcome;
    try {
      outcome = request.get().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      return api.error(
          HttpResponseStatus.CONFLICT,
          cause.getMessage() == null ? cause.toString() : cause.getMessage());
    } catch (TimeoutException e) {
      return api.error(
          HttpResponseStatus.GATEWAY_TIMEOUT,
          "Job " + jobId + " did not end within " + STOP_TIMEOUT_SECONDS + " s");
    }
    ObjectNode answer = json.createObjectNode();
    answer.put("jobId", jobId);
    answer.put("state", state.apply(outcome));
    answer.put("savepoint", savepoint == null ? null : savepoint.apply(outcome));
    return Response.json(json.writeValueAsBytes(answer));
  }
}
