package io.weir.cluster.jobmanager;

import io.netty.channel.EventLoopGroup;
import io.weir.api.datastream.JobExecutionException;
import io.weir.cluster.JarStore;
import io.weir.cluster.JobCode;
import io.weir.cluster.ha.JobManagerHighAvailability;
import io.weir.cluster.ha.LeaderEpoch;
import io.weir.cluster.ha.StoredJob;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ClientMessages;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobJar;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.cluster.rpc.MessageHandler;
import io.weir.cluster.rpc.RoleAccess;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.cluster.rpc.RpcServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job manager process: accepts task managers (registration, heartbeats, task reports and
 * checkpoint acknowledgements) and the command line's requests, and runs each submitted job on its
 * own thread. A task manager silent for longer than the heartbeat timeout, or whose connection
 * closes, is lost: the jobs running on it fail over.
 *
 * <p>With high availability, several job managers run and one leads: a standby binds its port but
 * answers nothing until it is elected; the leader stores each submitted job and points it to its
 * latest completed checkpoint before the checkpoint's notifications go out, and a new leader
 * recovers every stored job from there. A job manager that loses its leadership (its session ended,
 * or a write found a newer epoch) abandons its jobs without committing, triggering or deleting
 * anything, drops its task managers, and stands by to lead again: whatever it would still send or
 * write is fenced, and nothing of it acts beside the new leader.
 */
public final class JobManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobManager.class);

  private final JobManagerOptions options;
  // The jobs' clock: checkpoint times are shown as dates. Heartbeats, leases and the waits between
  // attempts run on the registry's monotonic one.
  private final Clock clock = Clock.systemUTC();
  private final EventLoopGroup network = EventLoops.create("weir-jobmanager-network", 4);
  private final TaskManagerRegistry registry;
  private final Map<String, ClusterJob> jobs = new LinkedHashMap<>();
  private final Map<RpcConnection, String> taskManagerConnections = new ConcurrentHashMap<>();
  private final ExecutorService requests = Executors.newCachedThreadPool(daemon("weir request"));
  private final ExecutorService jobThreads = Executors.newCachedThreadPool(daemon("weir job"));
  private final ScheduledExecutorService timer =
      Executors.newScheduledThreadPool(2, daemon("weir jobmanager timer"));
  // Completing a checkpoint reads and fsyncs files: never on a network thread, where it would hold
  // up heartbeats.
  private final ExecutorService checkpointAcks =
      Executors.newSingleThreadExecutor(daemon("weir checkpoint acks"));
  private final ClientRequests clientRequests = new ClientRequests(this);
  private final JarStore jars;
  private final JobManagerHighAvailability highAvailability;
  // This job manager's term as leader; null while it is a standby. Set and ended under the lock.
  private volatile LeaderEpoch epoch;
  private final Object leadership = new Object();
  private volatile boolean closing;
  private RpcServer server;

  private JobManager(JobManagerOptions options, JobManagerHighAvailability highAvailability) {
    this.options = options;
    this.highAvailability = highAvailability;
    this.registry = new TaskManagerRegistry(options.heartbeatTimeout(), new MonotonicClock());
    registry.onLost(this::onTaskManagerLost);
    // Submitted jars live beside the checkpoints they belong to.
    this.jars =
        options.checkpointDirectory() == null
            ? JarStore.temporary("weir-jobmanager-jars")
            : new JarStore(options.checkpointDirectory().resolve(".jars"));
  }

  /** A lone job manager, leader from the start. */
  public static JobManager start(JobManagerOptions options) throws ClusterConnectException {
    return start(options, JobManagerHighAvailability.none());
  }

  /**
   * A job manager that runs for leadership once it listens; it owns {@code highAvailability} from
   * then on.
   */
  public static JobManager start(
      JobManagerOptions options, JobManagerHighAvailability highAvailability)
      throws ClusterConnectException {
    JobManager jobManager = new JobManager(options, highAvailability);
    jobManager.server =
        RpcServer.bind(
            jobManager.network,
            options.host(),
            options.port(),
            options.tls(),
            Map.of(
                "taskmanager",
                new RoleAccess(
                    options.taskManagerSecret(),
                    JobManagerOptions.TASK_MANAGER_SECRET_SETTING,
                    jobManager.new TaskManagerMessages()),
                "client",
                new RoleAccess(
                    options.secret(),
                    JobManagerOptions.CLIENT_SECRET_SETTING,
                    jobManager.new ClientMessageHandler())));
    long check = Math.max(50, options.heartbeatTimeout().toMillis() / 4);
    jobManager.timer.scheduleWithFixedDelay(
        jobManager.registry::checkHeartbeats, check, check, TimeUnit.MILLISECONDS);
    LOG.info("Job manager listening on {}:{}", options.host(), jobManager.port());
    try {
      highAvailability.runForLeadership(
          new HostAndPort(options.host(), jobManager.port()),
          ProcessHandle.current().pid(),
          new LeaderRole(jobManager));
    } catch (Exception e) {
      jobManager.close();
      throw new ClusterConnectException("Cannot run for leadership: " + e.getMessage(), e);
    }
    return jobManager;
  }

  /** True while this job manager leads (a lone one always does). */
  public boolean isLeader() {
    return epoch != null && highAvailability.isLeader();
  }

  /** Takes up the leadership (on the election's thread): recovers every stored job. */
  void lead(LeaderEpoch term) {
    synchronized (leadership) {
      epoch = term;
    }
    List<StoredJob> stored;
    AttemptEnding formerLeaders;
    try {
      stored = highAvailability.storedJobs();
      // Read once the term began: a task manager listed now may still run a former leader's
      // attempts, and the first attempt of each recovered job deploys after they ended.
      formerLeaders =
          FormerLeaderTaskManagers.ending(
              term, highAvailability.listedTaskManagers(), highAvailability, registry);
    } catch (Exception e) {
      LOG.error("Cannot read the job store; stepping down so that another job manager leads", e);
      highAvailability.stepDown(term);
      return;
    }
    for (StoredJob job : stored) {
      requests.execute(() -> recover(job, formerLeaders));
    }
  }

  /**
   * Ends the term {@code ended} (on the election's thread): abandons every job, whose checkpoints
   * the new leader carries on from, and drops the task managers, which follow the new leader. This
   * job manager stays a standby until it is elected again.
   */
  void standBy(LeaderEpoch ended) {
    List<ClusterJob> abandoned;
    synchronized (leadership) {
      if (epoch != ended) {
        return;
      }
      epoch = null;
      synchronized (jobs) {
        abandoned = new ArrayList<>(jobs.values());
        jobs.clear();
      }
    }
    abandoned.forEach(ClusterJob::abandon);
    taskManagerConnections.clear();
    registry.dropAll();
    LOG.warn(
        "Deposed from epoch {}: abandoned {} job(s) without committing anything; standing by",
        ended.epoch(),
        abandoned.size());
  }

  /** True while this job manager leads in {@code term}: what it sends in a term ends with it. */
  private boolean leadsIn(LeaderEpoch term) {
    return epoch == term && highAvailability.isLeader();
  }

  private void recover(StoredJob stored, AttemptEnding formerLeaders) {
    JobSubmission submission = stored.recoverySubmission();
    LOG.info(
        "Recovering job {} from {}",
        stored.jobId(),
        stored.latestCheckpoint() == null ? "its start" : stored.latestCheckpoint());
    try {
      start(stored.jobId(), submission, codeOf(submission, null), formerLeaders);
    } catch (Exception e) {
      LOG.error("Job {} cannot be recovered: {}", stored.jobId(), e.getMessage(), e);
    }
  }

  public int port() {
    return server.port();
  }

  /** The jobs of this job manager, for the dashboard, REST API and metrics. */
  public ClusterJobs monitor() {
    return new ClusterJobs(this);
  }

  /**
   * Builds the job from its code and starts running it.
   *
   * @param jarBytes the bytes of the submission's jar, or null when it names none
   */
  ClusterJob submit(JobSubmission submission, byte[] jarBytes)
      throws JobExecutionException, IOException {
    if (!isLeader()) {
      throw new IllegalArgumentException(
          "This job manager is a standby; submit to " + highAvailability.leaderDescription());
    }
    JobSubmission resolved =
        submission.checkpointDirectory() != null || options.checkpointDirectory() == null
            ? submission
            : submission.withCheckpointDirectory(options.checkpointDirectory().toString());
    String jobId = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return start(jobId, resolved, codeOf(resolved, jarBytes), null);
  }

  /**
   * Prepares the job, stores it for later leaders, and runs it once {@code earlierWork} (null for
   * none) ended; owns {@code code}.
   */
  private ClusterJob start(
      String jobId, JobSubmission resolved, JobCode code, AttemptEnding earlierWork)
      throws JobExecutionException {
    ClusterJob job = null;
    LeaderEpoch term = epoch;
    TermJobStore store = new TermJobStore(highAvailability, term);
    try {
      job =
          ClusterJob.prepare(
              jobId,
              resolved,
              code,
              clock,
              store.pointer(jobId),
              store.ownsCheckpoints(),
              store.checkpointIds(jobId),
              highAvailability.checkpointFencing());
      synchronized (jobs) {
        for (ClusterJob other : jobs.values()) {
          if (other.jobName().equals(job.jobName()) && !other.status().isTerminal()) {
            throw new IllegalArgumentException(
                "Job '" + job.jobName() + "' already runs as " + other.jobId());
          }
        }
        jobs.put(jobId, job);
      }
      store.store(jobId, resolved);
      store.pointToRestored(jobId, job.restored());
    } catch (JobExecutionException | RuntimeException e) {
      forget(jobId);
      maybeReleaseLease(job);
      code.close();
      throw e;
    } catch (Exception e) {
      forget(jobId);
      maybeReleaseLease(job);
      code.close();
      throw new IllegalStateException("Cannot store job " + jobId + ": " + e.getMessage(), e);
    }
    ClusterJob submitted = job;
    LOG.info("Job {} '{}' submitted", jobId, submitted.jobName());
    jobThreads.execute(
        () -> {
          submitted.run(registry, timer, earlierWork);
          maybeRemoveStored(term, store, submitted);
        });
    return submitted;
  }

  /** A job prepared but not started gives up the lease of its checkpoint directory. */
  private static void maybeReleaseLease(ClusterJob job) {
    if (job != null) {
      job.releaseLease();
    }
  }

  private void forget(String jobId) {
    synchronized (jobs) {
      jobs.remove(jobId);
    }
  }

  /**
   * A job that ended for good is not recovered by later leaders; one stopped by a close, or
   * abandoned by a deposed leader, is.
   */
  private void maybeRemoveStored(LeaderEpoch term, TermJobStore store, ClusterJob job) {
    if (!closing && epoch == term && job.status().isTerminal()) {
      store.remove(job.jobId());
    }
  }

  private JobCode codeOf(JobSubmission submission, byte[] jarBytes) throws IOException {
    JobJar jar = submission.jar();
    if (jar == null) {
      return JobCode.classPath();
    }
    Path file =
        jarBytes != null
            ? jars.store(jar, jarBytes)
            : jars.find(jar)
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "The job manager has no jar " + jar.fileName() + ": send it along"));
    return JobCode.fromJar(jar, file);
  }

  /** The job manager's own address, and the live task managers, for {@code weir cluster status}. */
  ClientMessages.Members members() {
    return new ClientMessages.Members(
        new HostAndPort(options.host(), port()),
        ProcessHandle.current().pid(),
        new SlotsInUse(jobs()).of(registry.live()));
  }

  List<ClusterJob> jobs() {
    synchronized (jobs) {
      return new ArrayList<>(jobs.values());
    }
  }

  ClusterJob job(String jobId) {
    synchronized (jobs) {
      return jobs.get(jobId);
    }
  }

  private void onTaskManagerLost(String taskManagerId) {
    for (ClusterJob job : jobs()) {
      job.onTaskManagerLost(taskManagerId);
    }
  }

  /** What task managers send; on network threads, handed on without blocking. */
  private final class TaskManagerMessages implements MessageHandler {
    @Override
    public void onMessage(RpcConnection connection, Object message) {
      if (message instanceof ControlMessages.RegisterTaskManager register) {
        LeaderEpoch term = epoch;
        if (term == null || !isLeader()) {
          LOG.warn("A standby refuses task manager {}", register.taskManagerId());
          connection.close();
          return;
        }
        taskManagerConnections.put(connection, register.taskManagerId());
        registry.register(
            new RegisteredTaskManager(
                register.taskManagerId(),
                register.slots(),
                register.dataAddress(),
                register.pid(),
                new TaskManagerConnection(connection, term.epoch(), () -> leadsIn(term)),
                registry.clock().millis()));
      } else if (message instanceof ControlMessages.Heartbeat heartbeat) {
        registry.heartbeat(heartbeat.taskManagerId(), heartbeat.besideStartByAttempt());
        RegisteredTaskManager sender = registry.get(heartbeat.taskManagerId());
        if (sender != null) {
          sender.connection.send(
              new ControlMessages.HeartbeatAnswer(
                  options.heartbeatTimeout().toMillis(), heartbeat.sentNanos()));
        }
        for (ControlMessages.AttemptProgress progress : heartbeat.progress()) {
          withJob(progress.attempt(), job -> job.onProgress(heartbeat.taskManagerId(), progress));
        }
      } else if (message instanceof ControlMessages.TasksDeployed deployed) {
        withJob(deployed.attempt(), job -> job.onDeployed(deployed));
      } else if (message instanceof ControlMessages.TasksEnded ended) {
        withJob(ended.attempt(), job -> job.onTasksEnded(ended));
      } else if (message instanceof ControlMessages.TaskReport report) {
        withJob(report.attempt(), job -> job.onReport(report));
      } else if (message instanceof ControlMessages.CheckpointAcknowledged ack) {
        checkpointAcks.execute(() -> withJob(ack.attempt(), job -> job.onAcknowledged(ack)));
      } else if (message instanceof ControlMessages.CheckpointDeclined decline) {
        checkpointAcks.execute(() -> withJob(decline.attempt(), job -> job.onDeclined(decline)));
      }
    }

    /** The job of the attempt {@code id} names; the job drops what an older attempt says. */
    private void withJob(AttemptId id, java.util.function.Consumer<ClusterJob> action) {
      ClusterJob job = job(id.jobId());
      if (job != null) {
        action.accept(job);
      }
    }

    @Override
    public void onClosed(RpcConnection connection) {
      String id = taskManagerConnections.remove(connection);
      if (id != null) {
        registry.declareLost(id, "its connection closed");
      }
    }
  }

  /** One request per client connection, answered from a request thread. */
  private final class ClientMessageHandler implements MessageHandler {
    @Override
    public void onMessage(RpcConnection connection, Object message) {
      if (!(message instanceof ClientMessages.Request request)) {
        return;
      }
      if (!isLeader()) {
        connection.send(
            new ClientMessages.RequestFailed(
                "The job manager at "
                    + options.host()
                    + ":"
                    + port()
                    + " is a standby; ask "
                    + highAvailability.leaderDescription()));
        return;
      }
      requests.execute(() -> connection.send(clientRequests.answer(request)));
    }
  }

  @Override
  public void close() {
    closing = true;
    highAvailability.close();
    for (ClusterJob job : jobs()) {
      job.cancel();
    }
    if (server != null) {
      server.close();
    }
    timer.shutdownNow();
    requests.shutdownNow();
    checkpointAcks.shutdownNow();
    jobThreads.shutdownNow();
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
