package io.weir.cli.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.weir.cli.error.UserError;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Stops or cancels a job of a local {@code weir run} through its REST API ({@code POST
 * /api/v1/jobs/ID/stop} or {@code .../cancel}), as {@code weir stop} and {@code weir cancel} do on
 * a cluster through the job manager. Each call returns once the job has ended.
 */
public final class LocalRunControl {
  /** A little longer than the run waits for the job to end, so that the run's answer arrives. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(150);

  private final LocalRunOption run;
  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  public LocalRunControl(LocalRunOption run) {
    this.run = run;
  }

  /** Stops the job with a savepoint in {@code directory}; returns the savepoint's path. */
  public String stopWithSavepoint(String jobId, String directory) {
    return send(jobId, "stop", directory).get("savepoint").asText();
  }

  /**
   * Cancels the job, with a savepoint in {@code directory} first when one is given; returns the
   * savepoint's path, or null without one.
   */
  public String cancel(String jobId, String directory) {
    JsonNode answer = send(jobId, "cancel", directory);
    return directory == null ? null : answer.get("savepoint").asText();
  }

  private JsonNode send(String jobId, String action, String directory) {
    ObjectNode body = json.createObjectNode();
    if (directory != null) {
      body.put("targetDirectory", Path.of(directory).toAbsolutePath().toString());
    }
    URI uri = run.apiRoot().resolve("jobs/" + jobId + "/" + action);
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(uri)
                  .timeout(REQUEST_TIMEOUT)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new UserError(
          "No local run answers at --web "
              + run.address()
              + " (give the address its 'dashboard:' line printed)",
          e);
    } catch (IOException e) {
      throw new UserError(
          "The local run at --web " + run.address() + " did not answer: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while waiting for job " + jobId + " to end", e);
    }
    return answerOf(response);
  }

  private JsonNode answerOf(HttpResponse<String> response) {
    JsonNode answer;
    try {
      answer = json.readTree(response.body());
    } catch (IOException e) {
      answer = null;
    }
    if (response.statusCode() == 200 && answer != null) {
      return answer;
    }
    String error =
        answer != null && answer.hasNonNull("error") ? answer.get("error").asText() : null;
    throw new UserError(
        error != null
            ? error
            : "The local run at --web "
                + run.address()
                + " answered "
                + response.statusCode()
                + " (is it a Weir run's dashboard?)");
  }
}
