package io.weir.devservers.kafka;

import io.weir.devservers.process.FreePorts;
import io.weir.devservers.process.LogTail;
import io.weir.devservers.process.ProcessStopper;
import io.weir.devservers.process.RecordedProcess;
import io.weir.devservers.process.RecordedProcess.UnreadableCommandLine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;
import org.apache.kafka.common.Uuid;

/**
 * One single-node Kafka broker (KRaft, broker and controller in one process) running as its own JVM
 * on 127.0.0.1, started from the Kafka jars the build resolved.
 *
 * <p>Lifecycle: {@link #start} returns a serving broker; {@link #stop} (SIGTERM, then SIGKILL after
 * the grace period) or {@link #kill} (SIGKILL, as in a crash) ends the process; {@link #restart}
 * starts it again on the same directory and ports, keeping all data. The process is not tied to the
 * JVM that started it: it keeps running if that JVM dies, so whoever starts a broker must stop it
 * (tests: {@code close()} in an after-all callback).
 *
 * <p>Methods are thread-safe. Failures throw {@link KafkaBrokerException} with a one-line message
 * and the tail of the broker's log in {@link KafkaBrokerException#detail()}, which its stack trace
 * shows too.
 */
public final class KafkaBroker implements AutoCloseable {
  private final KafkaBrokerConfig config;
  private final BrokerFiles files;
  private final BrokerLauncher launcher;
  private final BrokerNode node;
  private final String quorumVoters;
  private final String clusterId;
  private Process process;

  private KafkaBroker(
      KafkaBrokerConfig config,
      BrokerNode node,
      String quorumVoters,
      String clusterId,
      List<String> launchPrefix) {
    this.config = config;
    this.files = new BrokerFiles(config.directory());
    this.launcher = new BrokerLauncher(config, files, launchPrefix);
    this.node = node;
    this.quorumVoters = quorumVoters;
    this.clusterId = clusterId;
  }

  /**
   * A node of a multi-node cluster, not started yet: {@link KafkaCluster} spawns every node before
   * it waits for any, since none serves before a majority of the quorum runs. {@code launchPrefix}
   * runs its JVM where it belongs (see {@link BrokerPlacement}).
   */
  static KafkaBroker member(
      KafkaBrokerConfig config,
      BrokerNode node,
      List<BrokerNode> quorum,
      String clusterId,
      List<String> launchPrefix) {
    return new KafkaBroker(config, node, BrokerNode.quorumVoters(quorum), clusterId, launchPrefix);
  }

  /**
   * Starts a broker and returns once it serves clients, within the configured start timeout. When
   * the broker exits because a port chosen for it (one the configuration leaves at 0) was taken
   * before it bound it, the start chooses fresh ports and tries again, at most {@value
   * BrokerStart#PORT_CONFLICT_TRIES} times in all, and logs each new try.
   */
  public static KafkaBroker start(KafkaBrokerConfig config) {
    return start(config, FreePorts::pick);
  }

  /** As {@link #start(KafkaBrokerConfig)}, with {@code freePort} choosing each port left at 0. */
  static KafkaBroker start(KafkaBrokerConfig config, IntSupplier freePort) {
    String clusterId = Uuid.randomUuid().toString();
    return BrokerStart.retryingOnPortConflict(
        config.directory(),
        "Kafka broker",
        freePort,
        ports -> {
          BrokerNode node =
              new BrokerNode(
                  1,
                  FreePorts.HOST,
                  ports.assign(config.port(), "client"),
                  ports.assign(config.controllerPort(), "controller"));
          KafkaBroker broker =
              new KafkaBroker(
                  config, node, BrokerNode.quorumVoters(List.of(node)), clusterId, List.of());
          broker.launch();
          return broker;
        });
  }

  /**
   * Stops the broker whose state file is in {@code directory} (started by another process), by its
   * process id: SIGTERM, then SIGKILL after {@code config.stopGracePeriod()}.
   *
   * @return the state of the broker that was running, or empty when none was
   */
  public static Optional<KafkaBrokerState> stopRunning(KafkaBrokerConfig config) {
    Optional<KafkaBrokerState> state = KafkaBrokerState.read(config.directory());
    Optional<ProcessHandle> process = state.flatMap(running -> brokerProcess(running.pid()));
    process.ifPresent(handle -> ProcessStopper.terminate(handle, config.stopGracePeriod()));
    KafkaBrokerState.delete(config.directory());
    return process.isPresent() ? state : Optional.empty();
  }

  /** The state file's broker, if its process is alive. */
  public static Optional<KafkaBrokerState> running(Path directory) {
    return KafkaBrokerState.read(directory).filter(state -> brokerProcess(state.pid()).isPresent());
  }

  /**
   * Starts the broker again on the same directory and ports after {@link #stop} or {@link #kill}.
   */
  public synchronized void restart() {
    if (process != null && process.isAlive()) {
      stop();
    }
    if (FreePorts.HOST.equals(node.host())) {
      FreePorts.resolve(node.port(), "Kafka broker", "client");
      FreePorts.resolve(node.controllerPort(), "Kafka broker", "controller");
    }
    launch();
  }

  /** SIGTERM, then SIGKILL if the broker has not exited within the grace period. Idempotent. */
  public synchronized void stop() {
    if (process != null) {
      ProcessStopper.terminate(process.toHandle(), config.stopGracePeriod());
      KafkaBrokerState.delete(files.directory());
    }
  }

  /** SIGKILL, as in a crash; returns when the process is gone. Idempotent. */
  public synchronized void kill() {
    if (process != null) {
      ProcessStopper.kill(process.toHandle());
    }
  }

  @Override
  public void close() {
    stop();
  }

  public synchronized boolean isAlive() {
    return process != null && process.isAlive();
  }

  public synchronized long pid() {
    return process.pid();
  }

  /** {@code <host>:<port>}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return node.clientAddress();
  }

  /** Its {@code node.id}: 1 for a single broker, 1 to n in a cluster of n. */
  public int nodeId() {
    return node.nodeId();
  }

  public int port() {
    return node.port();
  }

  public int controllerPort() {
    return node.controllerPort();
  }

  public Path directory() {
    return files.directory();
  }

  /** The broker's own log (Log4j), appended to across restarts. */
  public Path logFile() {
    return files.brokerLog();
  }

  private void launch() {
    Instant deadline = Instant.now().plus(config.startTimeout());
    spawn();
    awaitServing(deadline);
  }

  /** Writes its files, formats a new directory and starts the process, without waiting. */
  synchronized void spawn() {
    launcher.checkJava();
    files.write(node, quorumVoters, config.brokerProperties());
    launcher.maybeFormat(clusterId, config.startTimeout());
    process = launcher.startBroker();
    new KafkaBrokerState(process.pid(), node.port(), node.controllerPort())
        .write(files.directory());
  }

  /**
   * Returns once the spawned broker serves clients; kills it and fails when it exits or {@code
   * deadline} passes first.
   */
  synchronized void awaitServing(Instant deadline) {
    boolean ready;
    try {
      ready = BrokerReadiness.await(node.clientAddress(), deadline, process::isAlive);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ready = false;
    }
    if (!ready) {
      throw startFailure();
    }
  }

  /**
   * Kills the broker that failed to start, and says why in one line, naming a port the broker found
   * taken; the tail of its log and output go with the exception's detail.
   */
  private KafkaBrokerException startFailure() {
    boolean exited = !process.isAlive();
    String why =
        exited
            ? "it exited with code " + exitCode()
            : "it did not serve within " + config.startTimeout().toSeconds() + " s";
    ProcessStopper.kill(process.toHandle());
    KafkaBrokerState.delete(files.directory());
    Optional<BrokerPortConflict> conflict =
        exited
            ? BrokerPortConflict.find(node, files.brokerLog(), files.processOutput())
            : Optional.empty();
    String message =
        "Kafka broker in "
            + files.directory()
            + " on "
            + node.clientAddress()
            + " failed to start: "
            + why
            + conflict
                .map(taken -> "; port " + taken.port() + " is taken: " + taken.line())
                .orElse("");
    String detail =
        LogTail.of(files.brokerLog(), 40) + "\n" + LogTail.of(files.processOutput(), 20);
    return conflict
        .<KafkaBrokerException>map(taken -> new BrokerPortTakenException(message, detail, taken))
        .orElseGet(() -> new KafkaBrokerException(message, detail, null));
  }

  private int exitCode() {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static Optional<ProcessHandle> brokerProcess(long pid) {
    return RecordedProcess.find(pid, "kafka.Kafka", UnreadableCommandLine.RECORDED);
  }
}
