package io.weir.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.examples.SeedJob;
import io.weir.examples.SeedJobOptions;
import io.weir.examples.SeedRecords;
import io.weir.kafka.monitor.KafkaJobMonitor;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The seed job (two tasks, parallelism 2, exactly-once) running in this JVM on a real broker,
 * reading topic {@code foo} and writing {@code bar}, with the dashboard server of the local run on
 * a free port. Closing it cancels the job and stops the server.
 */
final class SeedJobOnBroker implements AutoCloseable {
  static final int PARTITIONS = 2;

  private final String bootstrapServers;
  private final LocalJobs jobs = new LocalJobs();
  private final JobClient job;
  private final WebServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();

  SeedJobOnBroker(String bootstrapServers, Path checkpoints, String token) throws Exception {
    this.bootstrapServers = bootstrapServers;
    KafkaTestClients.createTopic(bootstrapServers, "foo", PARTITIONS);
    KafkaTestClients.createTopic(bootstrapServers, "bar", PARTITIONS);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    SeedJob.build(
        env,
        SeedJobOptions.parse(
            "--bootstrap",
            bootstrapServers,
            "--parallelism",
            "2",
            "--checkpoint-interval",
            "300",
            "--checkpoint-dir",
            checkpoints.toString()));
    job = new LocalJobExecutor(jobs).executeAsync(env.plan("seed"));
    server =
        WebServer.start(
            new WebServerOptions("127.0.0.1", 0, token), jobs, new KafkaJobMonitor(), null);
  }

  /** Writes seed records {@code from} (inclusive) to {@code to} (exclusive) into {@code foo}. */
  void produce(long from, long to) {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(bootstrapServers))) {
      for (long i = from; i < to; i++) {
        producer.send(new ProducerRecord<>("foo", SeedRecords.generate(i)));
      }
    }
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url(path)));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(
        request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The JSON of {@code path}, which must answer 200. */
  JsonNode json(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = get(path, null);
    if (response.statusCode() != 200) {
      throw new AssertionError(
          path + " answered " + response.statusCode() + ": " + response.body());
    }
    return json.readTree(response.body());
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public void close() {
    server.close();
    job.cancel();
  }
}
