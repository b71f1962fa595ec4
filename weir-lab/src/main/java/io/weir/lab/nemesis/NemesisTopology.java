package io.weir.lab.nemesis;

import io.weir.devservers.kafka.BrokerPlacement;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.devservers.kafka.KafkaCluster;
import io.weir.devservers.kafka.KafkaClusterConfig;
import io.weir.lab.CellTopics;
import io.weir.lab.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The hosts of the nemesis lab and what runs on them: three brokers (KRaft, each partition on all
 * three, writes acknowledged by two, no unclean election), each on a host of its own, and the job
 * ({@link NemesisJob}), reading the input topic and writing the output topic through its
 * transactional sink, its checkpoints on a small file system of their own (which the nemesis can
 * fill); with {@code --sink postgres} also PostgreSQL, on a host of its own ({@link PostgresHost}).
 * The job runs as its {@link NemesisDeployment} says: one local job process on a fourth host, or a
 * highly available cluster ({@link NemesisCluster}) on hosts of its own.
 *
 * <p>Lifecycle: {@link #start} returns with the cluster serving, the topics made and the job
 * started; {@link #close} ends the job and the brokers and removes the network. A JVM shutdown
 * (Ctrl-C) runs {@link #close} too, so no namespace, link or process is left behind.
 */
final class NemesisTopology implements AutoCloseable {
  static final int BROKERS = 3;
  static final String JOB_HOST = "job";
  private static final int PARTITIONS = 4;

  /** Three brokers on a busy machine may take minutes to serve. */
  private static final Duration BROKER_START_TIMEOUT = Duration.ofMinutes(3);

  private final NemesisNetwork network;
  private final KafkaCluster cluster;
  private final JobDeployment job;
  private final CheckpointVolume checkpointVolume;
  private final Optional<PostgresHost> postgres;
  private final CellTopics topics;
  private final Resources resources;
  private final Thread shutdownHook;

  private NemesisTopology(CellTopics topics, Resources resources, Thread shutdownHook) {
    this.network = resources.network;
    this.cluster = resources.cluster;
    this.job = resources.job;
    this.checkpointVolume = resources.checkpointVolume;
    this.postgres = Optional.ofNullable(resources.postgres);
    this.topics = topics;
    this.resources = resources;
    this.shutdownHook = shutdownHook;
  }

  /**
   * Makes the network, starts the brokers, creates the topics, starts PostgreSQL on a host of its
   * own when the job writes there, and starts the job.
   */
  static NemesisTopology start(
      NetworkSlot slot,
      NemesisJob job,
      NemesisSink sink,
      NemesisDeployment deployment,
      Path directory,
      CellTopics topics,
      Duration timeout,
      NemesisLog log)
      throws Exception {
    List<String> hostNames = new ArrayList<>();
    for (int nodeId = 1; nodeId <= BROKERS; nodeId++) {
      hostNames.add(brokerHost(nodeId));
    }
    hostNames.addAll(deployment.hostNames());
    if (sink == NemesisSink.POSTGRES) {
      hostNames.add(PostgresHost.HOST);
    }
    NemesisNetwork network = NemesisNetwork.create(slot, hostNames);
    Resources resources = new Resources(network);
    Thread shutdownHook = new Thread(resources::close, "nemesis-tear-down");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    try {
      log.event("network " + describe(network) + " on bridge " + slot.bridge());
      // First, since it starts in seconds and its directory may be one the server cannot use.
      Optional<String> postgresUrl =
          sink == NemesisSink.POSTGRES
              ? Optional.of(startPostgres(resources, directory, timeout, log))
              : Optional.empty();
      resources.cluster = KafkaCluster.start(clusterConfig(directory.resolve("kafka"), network));
      String bootstrap = resources.cluster.bootstrapServers();
      log.event("Kafka cluster serving at " + bootstrap);
      List<String> created = new ArrayList<>(job.inputTopics(topics));
      created.add(topics.output());
      Topics.create(bootstrap, PARTITIONS, created.toArray(String[]::new));
      resources.checkpointVolume = CheckpointVolume.mount(slot, directory.resolve("checkpoints"));
      Path checkpoints = resources.checkpointVolume.directory();
      List<String> run =
          job.runArguments(
              bootstrap,
              topics,
              checkpoints,
              deployment == NemesisDeployment.HA_CLUSTER
                  ? NemesisCluster.startOptions()
                  : List.of(),
              postgresUrl);
      if (deployment == NemesisDeployment.HA_CLUSTER) {
        resources.job =
            NemesisCluster.start(
                network, directory.resolve("cluster"), checkpoints, run, timeout, log);
        log.event(job.key() + " job submitted to the HA cluster");
      } else {
        JobSupervisor supervisor = new JobSupervisor(network.host(JOB_HOST), run, directory, log);
        resources.job = supervisor;
        supervisor.start();
        log.event(job.key() + " job started on " + network.host(JOB_HOST).address());
      }
      return new NemesisTopology(topics, resources, shutdownHook);
    } catch (Exception | Error e) {
      resources.close();
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
      throw e;
    }
  }

  /** Starts PostgreSQL on its host; returns the URL the job writes to. */
  private static String startPostgres(
      Resources resources, Path directory, Duration timeout, NemesisLog log) {
    resources.postgres =
        PostgresHost.start(
            resources.network.host(PostgresHost.HOST), directory.resolve("postgres"), timeout);
    String jdbcUrl = resources.postgres.jdbcUrl();
    log.event("PostgreSQL serving at " + jdbcUrl);
    return jdbcUrl;
  }

  private static KafkaClusterConfig clusterConfig(Path directory, NemesisNetwork network) {
    KafkaClusterConfig config = KafkaClusterConfig.inDirectory(directory);
    KafkaBrokerConfig brokerConfig = config.brokerConfig().withStartTimeout(BROKER_START_TIMEOUT);
    return config
        .withBrokerConfig(brokerConfig)
        .withPlacement(
            new BrokerPlacement(
                nodeId -> network.host(brokerHost(nodeId)).address(),
                nodeId -> network.host(brokerHost(nodeId)).launchPrefix()));
  }

  static String brokerHost(int nodeId) {
    return "broker-" + nodeId;
  }

  private static String describe(NemesisNetwork network) {
    return String.join(
        ", ", network.hosts().stream().map(host -> host.name() + "=" + host.address()).toList());
  }

  /**
   * The hosts the job's processes run on (the local job's, or the HA cluster's): all but brokers
   * and PostgreSQL's.
   */
  List<LabHost> jobHosts() {
    List<String> others = new ArrayList<>(List.of(PostgresHost.HOST));
    for (int nodeId = 1; nodeId <= BROKERS; nodeId++) {
      others.add(brokerHost(nodeId));
    }
    return network.hosts().stream().filter(host -> !others.contains(host.name())).toList();
  }

  /** The PostgreSQL server the job writes to, with {@code --sink postgres}. */
  Optional<PostgresHost> postgres() {
    return postgres;
  }

  NemesisNetwork network() {
    return network;
  }

  KafkaCluster cluster() {
    return cluster;
  }

  KafkaBroker broker(int nodeId) {
    return cluster.broker(nodeId);
  }

  JobDeployment job() {
    return job;
  }

  /** The HA cluster the job runs on; fails for a local job, which has none. */
  NemesisCluster haCluster() {
    if (job instanceof NemesisCluster cluster) {
      return cluster;
    }
    throw new IllegalStateException("the nemesis lab's job runs without an HA cluster");
  }

  CheckpointVolume checkpointVolume() {
    return checkpointVolume;
  }

  CellTopics topics() {
    return topics;
  }

  String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  @Override
  public void close() {
    resources.close();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // Called from the hook itself while the JVM shuts down: nothing to remove.
    }
  }

  /** What has been started so far, ended in reverse order; every step runs even if one fails. */
  private static final class Resources {
    private final NemesisNetwork network;
    private volatile KafkaCluster cluster;
    private volatile JobDeployment job;
    private volatile CheckpointVolume checkpointVolume;
    private volatile PostgresHost postgres;

    Resources(NemesisNetwork network) {
      this.network = network;
    }

    void close() {
      try {
        if (job != null) {
          job.close();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        try {
          if (postgres != null) {
            postgres.close();
          }
        } finally {
          closeBrokersAndNetwork();
        }
      }
    }

    private void closeBrokersAndNetwork() {
      try {
        if (cluster != null) {
          cluster.stop();
        }
      } finally {
        if (checkpointVolume != null) {
          checkpointVolume.close();
        }
        network.close();
      }
    }
  }
}
