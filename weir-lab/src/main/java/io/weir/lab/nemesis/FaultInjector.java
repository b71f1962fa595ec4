package io.weir.lab.nemesis;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.process.ProcessSignals;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Injects one fault of a kind into the lab's topology and returns how to heal it. A paused or
 * killed process is chosen from one group of processes of one role (the job or the HA cluster's job
 * managers, task managers or ZooKeeper; the brokers; PostgreSQL), the groups taken in turn in a
 * random order so that every role is hit before any twice; an isolated broker is the one that
 * matters to the job at that moment, as the cluster names it, and a cut job manager the leader
 * ZooKeeper names.
 *
 * <p>Called by the nemesis thread only, one fault at a time.
 */
final class FaultInjector {
  private final NemesisTopology topology;
  private final ClusterLookup lookup;
  private final Random random;
  private int splits;
  private int partitions;
  private final Map<FaultKind, Deque<Integer>> groupTurns = new EnumMap<>(FaultKind.class);

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
      case ZOMBIE -> zombie();
      case LEADER -> cutLeaderFromZooKeeper();
    };
  }

  /**
   * How many faults of {@code kind} the nemesis's first round holds: one per group of processes for
   * pauses and kills, so that even a short run hits every role; one for the other kinds.
   */
  int firstRound(FaultKind kind) {
    return kind == FaultKind.PAUSE || kind == FaultKind.KILL ? processGroups().size() : 1;
  }

  /** How long a fault of {@code kind} lasts: pauses outlast the brokers' session timeout. */
  Duration length(FaultKind kind) {
    return switch (kind) {
      case PARTITION, BROKER, SPLIT, DISK, ZOMBIE -> seconds(5, 15);
      case PAUSE, LEADER -> seconds(10, 20);
      case KILL -> seconds(2, 8);
    };
  }

  Duration seconds(int least, int most) {
    return Duration.ofSeconds(least + random.nextInt(most - least + 1));
  }

  /**
   * The job cut from one broker; with PostgreSQL, from the database on odd partitions and from a
   * broker on even ones.
   */
  private ActiveFault partition() {
    NemesisNetwork network = topology.network();
    LabHost job = randomOf(topology.job().kafkaClientHosts());
    partitions++;
    LabHost server =
        topology
            .postgres()
            .filter(any -> partitions % 2 == 1)
            .map(PostgresHost::host)
            .orElseGet(() -> network.host(NemesisTopology.brokerHost(randomBroker())));
    network.blackhole(job, server);
    return new Healing(
        job.name() + " -/-> " + server.name(), () -> network.removeBlackhole(job, server));
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
    (jobWithMajority ? majority : minority).addAll(topology.jobHosts());
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

  /** The target's process and every process it started (PostgreSQL's backends), as a host's. */
  private ActiveFault pause() throws InterruptedException {
    ProcessTarget target = nextTarget(FaultKind.PAUSE);
    ProcessHandle main = target.handle().get();
    List<ProcessHandle> processes = Stream.concat(Stream.of(main), main.descendants()).toList();
    for (ProcessHandle process : processes) {
      ProcessSignals.send(process, ProcessSignals.Signal.STOP);
    }
    return new Healing(
        target.name() + " (SIGSTOP)",
        () -> {
          for (ProcessHandle process : processes) {
            ProcessSignals.send(process, ProcessSignals.Signal.CONT);
          }
        });
  }

  private ActiveFault kill() throws Exception {
    ProcessTarget target = nextTarget(FaultKind.KILL);
    target.kill().run();
    return new Healing(target.name() + " (SIGKILL)", target.restart());
  }

  /** Both ways between a task manager and every job manager; Kafka and ZooKeeper stay reachable. */
  private ActiveFault zombie() {
    NemesisCluster cluster = topology.haCluster();
    NemesisNetwork network = topology.network();
    LabHost taskManager = randomOf(cluster.taskManagers()).host();
    List<LabHost> jobManagers = cluster.jobManagers().stream().map(JobSupervisor::host).toList();
    for (LabHost jobManager : jobManagers) {
      network.blackhole(taskManager, jobManager);
      network.blackhole(jobManager, taskManager);
    }
    return new Healing(
        taskManager.name() + " -/- job managers",
        () -> {
          for (LabHost jobManager : jobManagers) {
            network.removeBlackhole(taskManager, jobManager);
            network.removeBlackhole(jobManager, taskManager);
          }
        });
  }

  /** Both ways between the leading job manager and ZooKeeper; the task managers stay reachable. */
  private ActiveFault cutLeaderFromZooKeeper() {
    NemesisCluster cluster = topology.haCluster();
    NemesisNetwork network = topology.network();
    Optional<JobSupervisor> leader = cluster.leader();
    LabHost jobManager = leader.orElseGet(() -> randomOf(cluster.jobManagers())).host();
    String role = leader.isPresent() ? "leader" : "chosen at random: ZooKeeper named no leader";
    LabHost zooKeeper = cluster.zooKeeperHost();
    network.blackhole(jobManager, zooKeeper);
    network.blackhole(zooKeeper, jobManager);
    return new Healing(
        jobManager.name() + " (" + role + ") -/- " + zooKeeper.name(),
        () -> {
          network.removeBlackhole(jobManager, zooKeeper);
          network.removeBlackhole(zooKeeper, jobManager);
        });
  }

  /** A process of the group whose turn it is for {@code kind}. */
  private ProcessTarget nextTarget(FaultKind kind) {
    List<List<ProcessTarget>> groups = processGroups();
    Deque<Integer> turns = groupTurns.computeIfAbsent(kind, any -> new ArrayDeque<>());
    if (turns.isEmpty()) {
      List<Integer> order = new ArrayList<>();
      for (int group = 0; group < groups.size(); group++) {
        order.add(group);
      }
      Collections.shuffle(order, random);
      turns.addAll(order);
    }
    return randomOf(groups.get(turns.poll()));
  }

  /** The job's groups of processes, then the brokers, then PostgreSQL when the job writes there. */
  private List<List<ProcessTarget>> processGroups() {
    List<List<ProcessTarget>> groups = new ArrayList<>();
    for (List<JobSupervisor> group : topology.job().processGroups()) {
      groups.add(
          group.stream()
              .map(
                  process ->
                      new ProcessTarget(
                          process.name(), process::handle, process::kill, process::start))
              .toList());
    }
    List<ProcessTarget> brokers = new ArrayList<>();
    for (int nodeId = 1; nodeId <= NemesisTopology.BROKERS; nodeId++) {
      KafkaBroker broker = topology.broker(nodeId);
      String name = NemesisTopology.brokerHost(nodeId);
      brokers.add(
          new ProcessTarget(
              name,
              () ->
                  ProcessHandle.of(broker.pid())
                      .orElseThrow(() -> new IllegalStateException(name + " is not running")),
              broker::kill,
              broker::restart));
    }
    groups.add(brokers);
    topology
        .postgres()
        .ifPresent(
            postgres ->
                groups.add(
                    List.of(
                        new ProcessTarget(
                            PostgresHost.HOST,
                            postgres::handle,
                            postgres::kill,
                            postgres::restart))));
    return groups;
  }

  private ActiveFault fillDisk() {
    CheckpointVolume volume = topology.checkpointVolume();
    volume.fill();
    return new Healing("checkpoint directory (file system full)", volume::drain);
  }

  private int randomBroker() {
    return 1 + random.nextInt(NemesisTopology.BROKERS);
  }

  private <T> T randomOf(List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }

  /** A process the nemesis may pause, or kill and start again. */
  private record ProcessTarget(
      String name, Supplier<ProcessHandle> handle, Action kill, Action restart) {}

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
