package io.weir.cli;

import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The short run the {@code weir} launcher records its class-data sharing archive from, right after
 * a build: it loads what most calls and job processes load at start-up — the command line, a small
 * checkpointed in-memory job run the way {@code weir run} runs one (dashboard included), and the
 * Kafka clients a Kafka job creates — so that every later JVM maps those classes instead of parsing
 * and verifying them again. Needs no broker: the clients are built and closed without connecting.
 * Not a user command; its exit code only decides whether the launcher keeps the archive.
 */
public final class ClassDataSharingTraining {
  private ClassDataSharingTraining() {}

  public static void main(String[] args) throws IOException {
    Path directory = Files.createTempDirectory("weir-cds-training");
    int exit;
    try {
      exit = train(directory);
    } finally {
      Directories.deleteRecursively(directory);
    }
    System.exit(exit);
  }

  private static int train(Path directory) throws IOException {
    int exit = WeirCli.run("run", "--help");
    if (exit == 0) {
      exit =
          WeirCli.run(
              "run",
              "--local",
              "--web-port",
              "0",
              "io.weir.examples.SeedJob",
              "--records",
              "2000",
              "--checkpoint-interval",
              "100",
              "--output-dir",
              directory.resolve("output").toString(),
              "--checkpoint-dir",
              directory.resolve("checkpoints").toString());
    }
    loadKafkaClients(unusedAddress());
    return exit;
  }

  /** Builds and closes a transactional producer, a read_committed consumer and an admin client. */
  private static void loadKafkaClients(String bootstrap) {
    try (KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(
                Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrap,
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                    "weir-cds-training",
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                    ByteArraySerializer.class));
        KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(
                Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                    bootstrap,
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                    "read_committed",
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                    ByteArrayDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                    ByteArrayDeserializer.class));
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      // Closed right away: nothing listens at the address, and nothing needs to.
      producer.close(Duration.ZERO);
      consumer.close(Duration.ZERO);
      admin.close(Duration.ZERO);
    }
  }

  /** A loopback address that nothing listens at (a free port, released again). */
  private static String unusedAddress() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return "127.0.0.1:" + socket.getLocalPort();
    }
  }
}
