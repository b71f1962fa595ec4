package io.weir.lab.nemesis;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.process.ProcessSignals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Injects one fault of a kind into the lab's topology and returns how to heal it. The targets are
 * chosen at random among the job and the brokers; an isolated broker is the one that matters to the
 * job at that moment, as the cluster names it.
 *
 * <p>Called by the nemesis thread only, one fault at a time.
 */
final class FaultInjector {
  private final NemesisTopology topology;
  private final ClusterLookup lookup;
  private final Random random;
  private int splits;

  FaultInjector(NemesisTopology topology, ClusterLookup lookup, Random random) {
    this.topology = topology;
    this.lookup = lookup;
    this.random = random;
  }

  /** A fault in place: what it hit, and how to undo it. */
  interface ActiveFault {
    String target();

    /** Undoes the fault; for a kill, starts the process again and returns once it runs. */
    void heal() throws Exception;
  }

  /** Injects a fault of {@code kind} now. */
  ActiveFault inject(FaultKind kind) throws Exception {
    return switch (kind) {
      case PARTITION -> partition();
      case PAUSE -> pause();
      case KILL -> kill();
      case BROKER -> isolateBroker();
      case SPLIT -> split();
      case DISK -> fillDisk();
    };
  }

  /** How long a fault of {@code kind} lasts: pauses outlast the brokers' session timeout. */
  Duration length(FaultKind kind) {
    return switch (kind) {
      case PARTITION, BROKER, SPLIT, DISK -> seconds(5, 15);
      case PAUSE -> seconds(10, 20);
      case KILL -> seconds(2, 8);
    };
  }

  Duration seconds(int least, int most) {
    return Duration.ofSeconds(least + random.nextInt(most - least + 1));
  }

  private ActiveFault partition() {
    NemesisNetwork network = topology.network();
    LabHost job = network.host(NemesisTopology.JOB_HOST);
    LabHost broker = network.host(NemesisTopology.brokerHost(randomBroker()));
    network.blackhole(job, broker);
    return new Healing(
        job.name() + " -/-> " + broker.name(), () -> network.removeBlackhole(job, broker));
  }

  private ActiveFault isolateBroker() throws InterruptedException {
    boolean coordinator = random.nextBoolean();
    Optional<Integer> found =
        coordinator
            ? lookup.transactionCoordinator(topology.topics().transactionalIdPrefix(), random)
            : lookup.partitionLeader(topology.topics().output(), random);
    int nodeId = found.orElseGet(this::randomBroker);
    String role =
        found.isEmpty()
            ? "chosen at random: the cluster did not answer"
            : coordinator ? "transaction coordinator" : "leader of an output partition";
    NemesisNetwork network = topology.network();
    LabHost broker = network.host(NemesisTopology.brokerHost(nodeId));
    network.cut(broker);
    return new Healing(broker.name() + " (" + role + ")", () -> network.heal(broker));
  }

  /**
   * Two brokers on one side, one on the other, the job with the majority on odd splits and with the
   * minority on even ones; each side's hosts drop what they send to the other's.
   */
  private ActiveFault split() {
    NemesisNetwork network = topology.network();
    int minorityBroker = randomBroker();
    List<LabHost> majority = new ArrayList<>();
    List<LabHost> minority = new ArrayList<>();
    for (int nodeId = 1; nodeId <= NemesisTopology.BROKERS; nodeId++) {
      LabHost broker = network.host(NemesisTopology.brokerHost(nodeId));
      (nodeId == minorityBroker ? minority : majority).add(broker);
    }
    splits++;
    boolean jobWithMajority = splits % 2 == 1;
    (jobWithMajority ? majority : minority).add(network.host(NemesisTopology.JOB_HOST));
    network.split(majority, minority);
    String target =
        "job with the "
            + (jobWithMajority ? "majority" : "minority")
            + ": "
            + names(majority)
            + " | "
            + names(minority);
    return new Healing(target, () -> network.join(majority, minority));
  }

  private static String names(List<LabHost> hosts) {
    return String.join(",", hosts.stream().map(LabHost::name).toList());
  }

  private ActiveFault pause() throws InterruptedException {
    int choice = random.nextInt(NemesisTopology.BROKERS + 1);
    String name = choice == 0 ? NemesisTopology.JOB_HOST : NemesisTopology.brokerHost(choice);
    long pid = choice == 0 ? topology.job().pid() : topology.broker(choice).pid();
    ProcessHandle process =
        ProcessHandle.of(pid)
            .orElseThrow(() -> new IllegalStateException(name + " is not running"));
    ProcessSignals.send(process, ProcessSignals.Signal.STOP);
    return new Healing(
        name + " (SIGSTOP)", () -> ProcessSignals.send(process, ProcessSignals.Signal.CONT));
  }

  private ActiveFault kill() {
    int choice = random.nextInt(NemesisTopology.BROKERS + 1);
    if (choice == 0) {
      JobSupervisor job = topology.job();
      job.kill();
      return new Healing(NemesisTopology.JOB_HOST + " (SIGKILL)", job::start);
    }
    KafkaBroker broker = topology.broker(choice);
    broker.kill();
    return new Healing(NemesisTopology.brokerHost(choice) + " (SIGKILL)", broker::restart);
  }

  private ActiveFault fillDisk() {
    CheckpointVolume volume = topology.checkpointVolume();
    volume.fill();
    return new Healing("checkpoint directory (file system full)", volume::drain);
  }

  private int randomBroker() {
    return 1 + random.nextInt(NemesisTopology.BROKERS);
  }

  /** A fault healed by one action. */
  private record Healing(String target, Action healing) implements ActiveFault {
    @Override
    public void heal() throws Exception {
      healing.run();
    }
  }

  /** An action that may throw, as healing does. */
  private interface Action {
    void run() throws Exception;
  }
}
