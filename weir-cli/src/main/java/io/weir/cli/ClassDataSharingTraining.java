package io.weir.cli;

import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.devservers.process.DevServerException;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * The short run the {@code weir} launcher records its job archive (class-data sharing) from, right
 * after a build: it loads what most calls and job processes load at start-up — the command line, a
 * small checkpointed in-memory job run the way {@code weir run} runs one (dashboard included), and
 * a small exactly-once job on an embedded Kafka broker — so that every later JVM maps those classes
 * instead of parsing and verifying them again.
 *
 * <p>The Kafka job matters most: clients that only start leave out what talking to a broker loads
 * (requests and responses, errors, fetches, transactions, their lambdas) and Weir's connectors,
 * which every Kafka job process then loaded from the jars, generating those lambdas anew. The same
 * job then runs once more, submitted by {@code weir run --jobmanager} to a job manager and a task
 * manager in this JVM, so that a cluster client's submission and the cluster's processes (which map
 * this archive too) find their classes here as well. When no broker starts here, the clients are
 * built and closed without one instead. Not a user command; its exit code only decides whether the
 * launcher keeps the archive.
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
    return exit == 0 ? runOnKafka(directory) : exit;
  }

  /**
   * Runs the seed job exactly-once on 2,000 records of a broker of its own; without a broker (one
   * that does not start here), builds the clients without connecting. The job's exit code.
   */
  private static int runOnKafka(Path directory) throws IOException {
    KafkaBroker broker;
    try {
      broker = KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory.resolve("kafka")));
    } catch (DevServerException e) {
      System.err.println("No broker for the archive's Kafka job (" + e.getMessage() + ")");
      loadKafkaClients(unusedAddress());
      return 0;
    }
    // The broker is a process of its own: an interrupted build (Ctrl-C) must not leave it running.
    Thread stopBroker = new Thread(broker::stop, "training broker stop");
    Runtime.getRuntime().addShutdownHook(stopBroker);
    try (broker) {
      String bootstrap = broker.bootstrapServers();
      Topics.create(bootstrap, 2, "input", "output");
      new SeedInput(bootstrap, "input").load(0, 2_000, 0);
      int exit =
          WeirCli.run(kafkaJob(directory, bootstrap, "training", "--local", "--web-port", "0"));
      return exit == 0 ? runOnCluster(directory, bootstrap) : exit;
    } catch (Exception e) {
      System.err.println("The archive's Kafka job failed: " + e);
      return 1;
    } finally {
      Runtime.getRuntime().removeShutdownHook(stopBroker);
    }
  }

  /**
   * Submits the Kafka job to a job manager and a task manager started in this JVM, as {@code weir
   * run --jobmanager} does, and waits for it to finish.
   */
  private static int runOnCluster(Path directory, String bootstrap) throws Exception {
    try (JobManager jobManager =
            JobManager.start(
                new JobManagerOptions(
                    "127.0.0.1",
                    0,
                    "",
                    Duration.ofSeconds(10),
                    directory.resolve("cluster-checkpoints")));
        TaskManager taskManager =
            TaskManager.start(
                new TaskManagerOptions(
                    new HostAndPort("127.0.0.1", jobManager.port()),
                    2,
                    "127.0.0.1",
                    "",
                    Duration.ofMillis(300)))) {
      return WeirCli.run(
          kafkaJob(
              directory,
              bootstrap,
              "training-cluster",
              "--jobmanager",
              "127.0.0.1:" + jobManager.port()));
    }
  }

  /**
   * {@code weir run <runOptions>} of the seed job exactly-once at parallelism 2, bounded, on the
   * training's topics, with a group, transactional ids and checkpoints named {@code name}.
   */
  private static String[] kafkaJob(
      Path directory, String bootstrap, String name, String... runOptions) {
    List<String> args = new ArrayList<>(List.of("run"));
    args.addAll(List.of(runOptions));
    args.addAll(
        List.of(
            "-p",
            "2",
            "--checkpoint-dir",
            directory.resolve(name + "-checkpoints").toString(),
            "io.weir.examples.SeedJob",
            "--bootstrap",
            bootstrap,
            "--input-topic",
            "input",
            "--output-topic",
            "output",
            "--group",
            name,
            "--transactional-id-prefix",
            name,
            "--semantic",
            "exactly-once",
            "--checkpoint-interval",
            "100",
            "--bounded"));
    return args.toArray(String[]::new);
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
