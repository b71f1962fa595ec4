package io.weir.lab.nemesis;

import io.weir.cluster.ha.ClusterMembers;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.ha.LeaderLookup;
import io.weir.cluster.ha.ZooKeeperAddress;
import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
import io.weir.lab.process.JobProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The highly available cluster the nemesis lab runs its job on, each process on a host of its own:
 * a ZooKeeper server, two job managers electing a leader through it, and three task managers of two
 * slots, all through the ordinary commands ({@code weir zookeeper run}, {@code weir jobmanager
 * --ha}, {@code weir taskmanager --ha}) started in their host's namespace and told its address.
 * Every process is kept running by a {@link JobSupervisor}, as a host's supervisor would.
 *
 * <p>The cluster is configured as one off loopback must be: a cluster secret, a task managers'
 * secret of their own and TLS with a key pair made for the lab ({@code weir cluster cert}), all in
 * one {@code weir.yaml} that every process and the submitting client read.
 *
 * <p>Lifecycle: {@link #start} returns once the job is submitted; {@link #close} ends every process
 * (their namespaces go with the lab's network).
 */
final class NemesisCluster implements JobDeployment {
  static final String ZOOKEEPER_HOST = "zookeeper";
  static final int JOB_MANAGERS = 2;
  static final int TASK_MANAGERS = 3;

  /** Three task managers of two slots run a parallelism of four with one of them gone. */
  private static final int SLOTS = 2;

  private static final int PARALLELISM = 4;
  private static final int ZOOKEEPER_PORT = 2181;
  private static final int JOB_MANAGER_PORT = 6123;

  /**
   * ZooKeeper sessions long enough not to expire spuriously on a loaded machine, and shorter than
   * the pauses and cuts of the nemesis, which should end a leader's term.
   */
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(8);

  private static final Duration POLL = Duration.ofMillis(200);

  private final Path directory;
  private final Duration timeout;
  private final String url;
  private final Path configuration;
  private final List<JobSupervisor> jobManagers = new ArrayList<>();
  private final List<JobSupervisor> taskManagers = new ArrayList<>();
  private final JobSupervisor zooKeeper;
  private ClusterZooKeeper session;
  private volatile boolean closed;

  private NemesisCluster(NemesisNetwork network, Path directory, Duration timeout, NemesisLog log) {
    this.directory = directory;
    this.timeout = timeout;
    LabHost zooKeeperHost = network.host(ZOOKEEPER_HOST);
    this.url = "zookeeper://" + zooKeeperHost.address() + ":" + ZOOKEEPER_PORT + "/weir";
    this.configuration = directory.resolve("weir.yaml");
    this.zooKeeper =
        new JobSupervisor(
            zooKeeperHost,
            ZOOKEEPER_HOST,
            List.of(
                "zookeeper",
                "run",
                "--dir",
                directory.resolve("zookeeper").toString(),
                "--host",
                zooKeeperHost.address(),
                "--port",
                Integer.toString(ZOOKEEPER_PORT)),
            directory,
            log);
  }

  /** The options of {@code weir run} the cluster's job needs: a parallelism its slots can run. */
  static List<String> startOptions() {
    return List.of("-p", Integer.toString(PARALLELISM));
  }

  /** The names of the cluster's hosts, in the order the network should make them. */
  static List<String> hostNames() {
    List<String> names = new ArrayList<>(List.of(ZOOKEEPER_HOST));
    for (int number = 1; number <= JOB_MANAGERS; number++) {
      names.add(jobManagerHost(number));
    }
    for (int number = 1; number <= TASK_MANAGERS; number++) {
      names.add(taskManagerHost(number));
    }
    return names;
  }

  static String jobManagerHost(int number) {
    return "jobmanager-" + number;
  }

  static String taskManagerHost(int number) {
    return "taskmanager-" + number;
  }

  /**
   * Starts ZooKeeper, the job managers (the first one leads), the task managers, and submits the
   * job ({@code weir run} with {@code runArguments}, which hold {@link #startOptions}) to the
   * leader, detached. A failure halfway ends what was started.
   *
   * @param checkpoints the job managers' shared checkpoint directory
   */
  static NemesisCluster start(
      NemesisNetwork network,
      Path directory,
      Path checkpoints,
      List<String> runArguments,
      Duration timeout,
      NemesisLog log)
      throws Exception {
    Files.createDirectories(directory);
    NemesisCluster cluster = new NemesisCluster(network, directory, timeout, log);
    try {
      cluster.configure(network);
      cluster.startProcesses(network, checkpoints, log);
      cluster.submit(runArguments);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private void configure(NemesisNetwork network) throws Exception {
    Path keyStore = directory.resolve("cluster.p12");
    String password = randomSecret();
    List<String> cert =
        new ArrayList<>(
            List.of("cluster", "cert", "--out", keyStore.toString(), "--password", password));
    for (String name : hostNames()) {
      cert.addAll(List.of("--host", network.host(name).address()));
    }
    JobProcess.runCommand(cert, directory.resolve("cluster-cert.log"), timeout);
    Files.writeString(
        configuration,
        String.join(
            "\n",
            "ha.session.timeout.ms: " + SESSION_TIMEOUT.toMillis(),
            "cluster.secret: " + randomSecret(),
            "taskmanager.secret: " + randomSecret(),
            "cluster.tls.keystore: " + keyStore,
            "cluster.tls.password: " + password,
            ""));
  }

  private void startProcesses(NemesisNetwork network, Path checkpoints, NemesisLog log)
      throws Exception {
    zooKeeper.start();
    LabHost zooKeeperHost = zooKeeper.host();
    // Connected only once it listens: a client of a server still starting logs every retry.
    await("ZooKeeper listens", () -> listens(zooKeeperHost.address(), ZOOKEEPER_PORT), zooKeeper);
    session =
        ClusterZooKeeper.connect(
            ZooKeeperAddress.parse("the nemesis lab's ZooKeeper", url), SESSION_TIMEOUT, timeout);
    for (int number = 1; number <= JOB_MANAGERS; number++) {
      JobSupervisor jobManager =
          startJobManager(network.host(jobManagerHost(number)), checkpoints, log);
      int members = number;
      // One after the other, so that the first one leads: every run starts alike.
      await(
          jobManager.name() + " joins the election",
          () -> leader().isPresent() && new ClusterMembers(session).jobManagers().size() >= members,
          jobManager);
    }
    for (int number = 1; number <= TASK_MANAGERS; number++) {
      startTaskManager(network.host(taskManagerHost(number)), log);
    }
    await(
        "every task manager registers",
        () -> new ClusterMembers(session).taskManagers().size() == TASK_MANAGERS,
        taskManagers.get(0));
  }

  /**
   * {@code weir jobmanager --ha} listening on, and so named in ZooKeeper by, its host's address.
   */
  private JobSupervisor startJobManager(LabHost host, Path checkpoints, NemesisLog log) {
    JobSupervisor jobManager =
        new JobSupervisor(
            host,
            host.name(),
            List.of(
                "jobmanager",
                "--host",
                host.address(),
                "--port",
                Integer.toString(JOB_MANAGER_PORT),
                "--ha",
                url,
                "--conf",
                configuration.toString(),
                "--no-web",
                "--checkpoint-dir",
                checkpoints.toString()),
            directory,
            log);
    jobManagers.add(jobManager);
    jobManager.start();
    return jobManager;
  }

  /** {@code weir taskmanager --ha} with its data port on its host's address. */
  private void startTaskManager(LabHost host, NemesisLog log) {
    JobSupervisor taskManager =
        new JobSupervisor(
            host,
            host.name(),
            List.of(
                "taskmanager",
                "--ha",
                url,
                "--conf",
                configuration.toString(),
                "--slots",
                Integer.toString(SLOTS),
                "--data-host",
                host.address()),
            directory,
            log);
    taskManagers.add(taskManager);
    taskManager.start();
  }

  private void submit(List<String> runArguments) throws Exception {
    List<String> run =
        new ArrayList<>(
            List.of("run", "--ha", url, "--conf", configuration.toString(), "--detached"));
    run.addAll(runArguments);
    JobProcess.runCommand(run, directory.resolve("submit.log"), timeout);
  }

  /** The job manager ZooKeeper names the leader now, if one is and ZooKeeper answers. */
  Optional<JobSupervisor> leader() {
    try {
      Optional<LeaderInfo> leader = new LeaderLookup(session).current();
      return leader.flatMap(
          info ->
              jobManagers.stream()
                  .filter(each -> each.host().address().equals(info.address().host()))
                  .findFirst());
    } catch (Exception e) {
      // ZooKeeper paused, killed or cut off: no answer this time.
      return Optional.empty();
    }
  }

  LabHost zooKeeperHost() {
    return zooKeeper.host();
  }

  List<JobSupervisor> jobManagers() {
    return List.copyOf(jobManagers);
  }

  List<JobSupervisor> taskManagers() {
    return List.copyOf(taskManagers);
  }

  @Override
  public List<LabHost> kafkaClientHosts() {
    return taskManagers.stream().map(JobSupervisor::host).toList();
  }

  /**
   * The job managers (the leader alone when ZooKeeper names one: losing the standby changes
   * nothing), the task managers, and ZooKeeper.
   */
  @Override
  public List<List<JobSupervisor>> processGroups() {
    List<JobSupervisor> leading = leader().map(List::of).orElse(jobManagers());
    return List.of(leading, taskManagers(), List.of(zooKeeper));
  }

  /** The cluster keeps its job until it is closed; a job that failed for good never settles. */
  @Override
  public boolean runs() {
    return !closed;
  }

  @Override
  public Path log() {
    return directory;
  }

  @Override
  public int unexpectedExits() {
    int exits = zooKeeper.unexpectedExits();
    for (JobSupervisor process : jobManagers) {
      exits += process.unexpectedExits();
    }
    for (JobSupervisor process : taskManagers) {
      exits += process.unexpectedExits();
    }
    return exits;
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    for (JobSupervisor process : taskManagers) {
      process.close();
    }
    for (JobSupervisor process : jobManagers) {
      process.close();
    }
    if (session != null) {
      session.close();
    }
    zooKeeper.close();
  }

  /** A state of the cluster the lab polls: its processes announce nothing to the lab. */
  private interface Condition {
    boolean holds() throws Exception;
  }

  private void await(String what, Condition condition, JobSupervisor process) throws Exception {
    Polling.until(
        timeout,
        POLL,
        () -> condition.holds() ? Optional.of(true) : Optional.empty(),
        () ->
            new LabFailure(
                "not so within " + timeout.toSeconds() + " s: " + what + "; see " + process.log()));
  }

  private static boolean listens(String address, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), (int) POLL.toMillis());
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String randomSecret() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
