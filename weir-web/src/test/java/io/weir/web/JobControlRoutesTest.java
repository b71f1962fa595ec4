package io.weir.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.monitor.JobControl;
import io.weir.runtime.monitor.KafkaMonitor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API's control requests on a local run's jobs: stop and cancel with a savepoint answer once
 * the job has ended, in the state each names; unknown jobs, missing directories and bodies that are
 * not JSON are refused.
 */
@Timeout(120)
class JobControlRoutesTest {
  private final HttpClient http = HttpClient.newHttpClient();
  private final LocalJobs jobs = new LocalJobs();

  @TempDir Path directory;

  @Test
  void when_stopIsPosted_then_theJobEndsFinishedWithTheSavepointAndTheAnswerNamesIt()
      throws Exception {
    // given: a running local job with periodic checkpoints
    try (WebServer server = start()) {
      JobClient job = runningJob("stopped");

      // when
      Path target = directory.resolve("savepoint-1");
      HttpResponse<String> answer = post(server, "/api/v1/jobs/local-1/stop", target);

      // then
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body())
          .contains("\"jobId\":\"local-1\"", "\"state\":\"FINISHED\"", target.toString());
      assertThat(target.resolve("_metadata")).exists();
      JobResult result = job.awaitResult();
      assertThat(result.end()).isEqualTo(JobResult.End.STOPPED_WITH_SAVEPOINT);
      assertThat(jobs.jobs().get(0).status()).isEqualTo("FINISHED");
    }
  }

  @Test
  void when_cancelWithATargetIsPosted_then_theJobEndsCanceledWithNothingPendingAndAResult()
      throws Exception {
    // given
    try (WebServer server = start()) {
      JobClient job = runningJob("cancelled");

      // when
      Path target = directory.resolve("savepoint-2");
      HttpResponse<String> answer = post(server, "/api/v1/jobs/local-1/cancel", target);

      // then: a cancel with savepoint is a normal end, not a failure
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body()).contains("\"state\":\"CANCELED\"", target.toString());
      assertThat(job.awaitResult().end()).isEqualTo(JobResult.End.CANCELED_WITH_SAVEPOINT);
      assertThat(jobs.jobs().get(0).status()).isEqualTo("CANCELED");
    }
  }

  @Test
  void when_requestIsWrong_then_itIsRefusedWithAReasonAndTheJobRunsOn() throws Exception {
    try (WebServer server = start()) {
      JobClient job = runningJob("refused");

      assertThat(post(server, "/api/v1/jobs/local-9/stop", directory).statusCode()).isEqualTo(404);
      HttpResponse<String> noTarget = post(server, "/api/v1/jobs/local-1/stop", null);
      assertThat(noTarget.statusCode()).isEqualTo(400);
      assertThat(noTarget.body()).contains("targetDirectory");
      HttpResponse<String> relative =
          send(server, "/api/v1/jobs/local-1/stop", "{\"targetDirectory\":\"sp\"}", true);
      assertThat(relative.statusCode()).isEqualTo(400);
      // a form post, as a web page of another origin could send without asking
      HttpResponse<String> notJson =
          send(server, "/api/v1/jobs/local-1/stop", "targetDirectory=/savepoints/1", false);
      assertThat(notJson.statusCode()).isEqualTo(415);
      assertThat(jobs.jobs().get(0).status()).isEqualTo("RUNNING");

      job.cancel();
    }
  }

  @Test
  void when_theServerClosesAsTheStoppedJobEnds_then_theStopsAnswerIsNeverDropped()
      throws Exception {
    // A local run closes its server right after its job ended, which is when the stop's answer is
    // being written: the close must not cut the connection before that answer is on the wire.
    for (int round = 1; round <= 30; round++) {
      // given: a job whose end this test decides
      CompletableFuture<Path> ended = new CompletableFuture<>();
      CountDownLatch requested = new CountDownLatch(1);
      JobControl control =
          new JobControl() {
            @Override
            public Optional<CompletableFuture<Path>> stopWithSavepoint(
                String jobId, Path target, SavepointEnd end) {
              requested.countDown();
              return Optional.of(ended);
            }

            @Override
            public Optional<CompletableFuture<String>> cancel(String jobId) {
              return Optional.empty();
            }
          };
      WebServer server =
          WebServer.start(
              new WebServerOptions("127.0.0.1", 0, ""), jobs, control, KafkaMonitor.NONE, null);
      Path target = directory.resolve("savepoint-" + round);
      CompletableFuture<HttpResponse<String>> answer =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return post(server, "/api/v1/jobs/local-1/stop", target);
                } catch (Exception e) {
                  throw new CompletionException(e);
                }
              });
      assertThat(requested.await(30, TimeUnit.SECONDS)).isTrue();

      // when: the job ends and, as in a local run, the server is closed at once
      ended.complete(target);
      server.close();

      // then
      assertThat(answer.get(30, TimeUnit.SECONDS).statusCode()).as("round " + round).isEqualTo(200);
    }
  }

  @Test
  void when_theServerHasAToken_then_aControlRequestNeedsItLikeTheRestOfTheApi() throws Exception {
    try (WebServer server =
        WebServer.start(
            new WebServerOptions("127.0.0.1", 0, "t0ken"), jobs, jobs, KafkaMonitor.NONE, null)) {
      HttpResponse<String> refused = post(server, "/api/v1/jobs/local-1/stop", directory);
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(post(server, "/api/v1/jobs/local-1/stop?token=t0ken", directory).statusCode())
          .isEqualTo(401);
      HttpResponse<String> allowed =
          send(
              server,
              "/api/v1/jobs/local-1/stop",
              "{\"targetDirectory\":\"" + directory + "\"}",
              true,
              "t0ken");
      assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(404);
      assertThat(allowed.body()).contains("No job local-1");
    }
  }

  private WebServer start() throws Exception {
    return WebServer.start(
        new WebServerOptions("127.0.0.1", 0, ""), jobs, jobs, KafkaMonitor.NONE, null);
  }

  /** An endless job (its source emits slowly), with a completed checkpoint once this returns. */
  private JobClient runningJob(String name) throws JobExecutionException {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(directory.resolve("checkpoints"));
    env.addSource(new GeneratorSource<>(Long.MAX_VALUE, i -> i, 1_000))
        .uid("numbers")
        .addSink(new DiscardingSink<>())
        .uid("discard");
    JobClient job = new LocalJobExecutor(jobs).executeAsync(env.plan(name));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                !jobs.jobs().isEmpty()
                    && jobs.jobs().get(0).status().equals("RUNNING")
                    && jobs.jobs().get(0).lastCompletedCheckpoint() != null);
    return job;
  }

  private HttpResponse<String> post(WebServer server, String path, Path target) throws Exception {
    String body = target == null ? "{}" : "{\"targetDirectory\":\"" + target + "\"}";
    return send(server, path, body, true);
  }

  private HttpResponse<String> send(WebServer server, String path, String body, boolean json)
      throws Exception {
    return send(server, path, body, json, null);
  }

  private HttpResponse<String> send(
      WebServer server, String path, String body, boolean json, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .header("Content-Type", json ? "application/json" : "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
