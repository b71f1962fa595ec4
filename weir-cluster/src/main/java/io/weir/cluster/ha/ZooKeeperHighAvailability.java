package io.weir.cluster.ha;

import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.jobmaster.CheckpointFencing;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election among job managers with Curator's leader latch, and the job store and checkpoint
 * pointers in ZooKeeper. Each new leader increments the epoch node; the version that increment
 * produced fences every write of its term, so a leader that was deposed while it hung (SIGSTOP) or
 * was cut off cannot change anything once it runs again. A deposed leader (its session ended, or a
 * write found a newer epoch) runs for leadership again, as a standby.
 */
public final class ZooKeeperHighAvailability implements JobManagerHighAvailability {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperHighAvailability.class);

  private final ClusterZooKeeper zooKeeper;
  private final CuratorFramework client;
  // The election's callbacks block on ZooKeeper: never on ZooKeeper's own event thread.
  private final ExecutorService callbacks =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "weir leadership");
            thread.setDaemon(true);
            return thread;
          });
  private final AtomicReference<LeaderEpoch> term = new AtomicReference<>();
  private volatile LeaderLatch latch;
  // When ZooKeeper last confirmed the current term (System.nanoTime before asking), and for how
  // long that stays certain: no other leader can be elected before this session has been silent
  // for a whole session timeout.
  private volatile long confirmedNanos;
  private final long leaseNanos;
  private HostAndPort address;
  private long pid;
  private LeadershipListener listener;
  private boolean closed;

  public ZooKeeperHighAvailability(ClusterZooKeeper zooKeeper) {
    this.zooKeeper = zooKeeper;
    this.client = zooKeeper.client();
    this.leaseNanos = zooKeeper.sessionTimeout().toNanos() / 4;
    this.confirmedNanos = System.nanoTime() - leaseNanos;
  }

  @Override
  public synchronized void runForLeadership(
      HostAndPort address, long pid, LeadershipListener listener) throws Exception {
    this.address = address;
    this.pid = pid;
    this.listener = listener;
    new ClusterMembers(zooKeeper).registerJobManager(address, pid);
    // A session that expired took this job manager's membership node along; the new session
    // (Curator makes one) puts it back. The election is joined again when the term ends.
    client
        .getConnectionStateListenable()
        .addListener(
            (ignored, state) -> {
              if (state == ConnectionState.RECONNECTED && !callbacks.isShutdown()) {
                callbacks.execute(this::registerAgain);
              }
            });
    joinElection();
    LOG.info("Job manager {} runs for leadership at {}", address, zooKeeper.address());
  }

  private synchronized void joinElection() throws Exception {
    if (closed) {
      return;
    }
    LeaderLatch joined = new LeaderLatch(client, HaPaths.LEADER_LATCH, address.toString());
    joined.addListener(new Election(joined), callbacks);
    latch = joined;
    joined.start();
  }

  /** Leaves the election and joins it again as a standby, so that another job manager may lead. */
  private synchronized void rejoinElection() {
    if (closed) {
      return;
    }
    try {
      latch.close(LeaderLatch.CloseMode.SILENT);
      joinElection();
      LOG.info("Job manager {} runs for leadership again, as a standby", address);
    } catch (Exception e) {
      LOG.error("Could not rejoin the election; this job manager stays a standby", e);
    }
  }

  private void registerAgain() {
    try {
      new ClusterMembers(zooKeeper).registerJobManager(address, pid);
    } catch (Exception e) {
      LOG.warn("Could not register job manager {} again: {}", address, e.toString());
    }
  }

  /**
   * What one latch says, on the election's thread. A latch that was replaced may still have a grant
   * queued (it re-creates its node after a session expired, and may win with it just before it is
   * closed): only the current latch's grant, while it holds the leadership, starts a term, and
   * never a second one beside a term that has not ended.
   */
  private final class Election implements LeaderLatchListener {
    private final LeaderLatch ownLatch;

    Election(LeaderLatch ownLatch) {
      this.ownLatch = ownLatch;
    }

    @Override
    public void isLeader() {
      if (ownLatch != latch || !ownLatch.hasLeadership()) {
        LOG.info("A replaced election of job manager {} was won late: ignored", address);
        return;
      }
      LeaderEpoch running = term.get();
      if (running != null) {
        endTerm(running);
        return;
      }
      LeaderEpoch epoch;
      long asked = System.nanoTime();
      try {
        epoch = incrementEpoch();
      } catch (Exception e) {
        // Not leader without an epoch: give the latch back so another one can take it.
        LOG.error("Could not take up the leadership; joining the election again", e);
        rejoinElection();
        return;
      }
      confirmedNanos = asked;
      term.set(epoch);
      LOG.info("This job manager ({}) is the leader, epoch {}", address, epoch.epoch());
      // Leading before it is named: the first task managers to find it are accepted.
      listener.granted(epoch);
      try {
        publishLeader(new LeaderInfo(address, pid, epoch.epoch()), epoch);
      } catch (Exception e) {
        LOG.error("Could not name this job manager leader of epoch {}", epoch.epoch(), e);
        endTerm(epoch);
      }
    }

    @Override
    public void notLeader() {
      LeaderEpoch ended = term.get();
      if (ended != null && ownLatch == latch) {
        endTerm(ended);
      }
    }
  }

  @Override
  public void stepDown(LeaderEpoch epoch) {
    try {
      callbacks.execute(() -> endTerm(epoch));
    } catch (RejectedExecutionException e) {
      // Closed: this job manager leaves the election for good.
    }
  }

  /**
   * Ends {@code ended} once (on the election's thread), tells the listener, and joins the election
   * with a fresh latch: the same way whether the session ended or a write found a newer epoch.
   */
  private void endTerm(LeaderEpoch ended) {
    if (!term.compareAndSet(ended, null)) {
      return;
    }
    LOG.error("This job manager ({}) lost the leadership of epoch {}", address, ended.epoch());
    listener.revoked(ended);
    rejoinElection();
  }

  /** Increments the epoch node; its new version fences this term's writes. */
  private LeaderEpoch incrementEpoch() throws Exception {
    while (true) {
      Stat stat = new Stat();
      long current;
      try {
        current = Long.parseLong(text(client.getData().storingStatIn(stat).forPath(HaPaths.EPOCH)));
      } catch (KeeperException.NoNodeException e) {
        try {
          client.create().creatingParentContainersIfNeeded().forPath(HaPaths.EPOCH, bytes("0"));
        } catch (KeeperException.NodeExistsException raced) {
          // Another job manager created it first.
        }
        continue;
      }
      try {
        Stat written =
            client
                .setData()
                .withVersion(stat.getVersion())
                .forPath(HaPaths.EPOCH, bytes(String.valueOf(current + 1)));
        return new LeaderEpoch(current + 1, written.getVersion());
      } catch (KeeperException.BadVersionException e) {
        // Incremented by another job manager meanwhile: read it again.
      }
    }
  }

  /** Replaces the leader node (ephemeral: it ends with this job manager's session). */
  private void publishLeader(LeaderInfo leader, LeaderEpoch epoch) throws Exception {
    try {
      client.delete().forPath(HaPaths.LEADER);
    } catch (KeeperException.NoNodeException e) {
      // No earlier leader's node left.
    }
    client
        .transaction()
        .forOperations(
            client.transactionOp().check().withVersion(epoch.version()).forPath(HaPaths.EPOCH),
            client
                .transactionOp()
                .create()
                .withMode(CreateMode.EPHEMERAL)
                .forPath(HaPaths.LEADER, leader.encode()));
  }

  @Override
  public boolean confirmLeadership(LeaderEpoch epoch) {
    if (term.get() != epoch) {
      return false;
    }
    long asked = System.nanoTime();
    if (asked - confirmedNanos < leaseNanos) {
      return true;
    }
    Stat stat = new Stat();
    try {
      client.getData().storingStatIn(stat).forPath(HaPaths.EPOCH);
    } catch (Exception e) {
      LOG.warn("ZooKeeper did not confirm the leadership of epoch {}: {}", epoch.epoch(), e);
      return false;
    }
    if (stat.getVersion() != epoch.version()) {
      LOG.warn("A newer leader than epoch {} was elected: stepping down", epoch.epoch());
      stepDown(epoch);
      return false;
    }
    confirmedNanos = asked;
    return term.get() == epoch;
  }

  @Override
  public CheckpointFencing checkpointFencing() {
    return CheckpointFencing.LEADER_TERM;
  }

  @Override
  public boolean isLeader() {
    LeaderLatch current = latch;
    return term.get() != null && current != null && current.hasLeadership();
  }

  @Override
  public String leaderDescription() {
    try {
      return new LeaderLookup(zooKeeper)
          .current()
          .map(leader -> "the leader at " + leader.address())
          .orElse("no leader yet");
    } catch (Exception e) {
      return "the leader (ZooKeeper did not answer: " + e.getMessage() + ")";
    }
  }

  @Override
  public void storeJob(LeaderEpoch epoch, String jobId, JobSubmission submission) throws Exception {
    zooKeeper.fencedWrite(epoch, HaPaths.job(jobId), SubmissionCodec.encode(submission));
  }

  @Override
  public void removeJob(LeaderEpoch epoch, String jobId) throws Exception {
    zooKeeper.fencedDelete(epoch, HaPaths.job(jobId));
  }

  @Override
  public void pointToCheckpoint(LeaderEpoch epoch, String jobId, long checkpointId, String location)
      throws Exception {
    zooKeeper.fencedWrite(
        epoch, HaPaths.latestCheckpoint(jobId), bytes(checkpointId + " " + location));
  }

  @Override
  public void claimCheckpointId(LeaderEpoch epoch, String jobId, long checkpointId)
      throws Exception {
    zooKeeper.fencedWrite(
        epoch, HaPaths.claimedCheckpointIds(jobId), bytes(String.valueOf(checkpointId)));
  }

  /**
   * Read after this leader's own increment of the epoch: a claim of an earlier leader either
   * committed before that increment, and is seen here, or failed its fencing check.
   */
  @Override
  public long lastClaimedCheckpointId(String jobId) throws Exception {
    try {
      return Long.parseLong(text(client.getData().forPath(HaPaths.claimedCheckpointIds(jobId))));
    } catch (KeeperException.NoNodeException e) {
      return 0;
    }
  }

  @Override
  public List<StoredJob> storedJobs() throws Exception {
    List<StoredJob> jobs = new ArrayList<>();
    if (client.checkExists().forPath(HaPaths.JOBS) == null) {
      return jobs;
    }
    for (String jobId : client.getChildren().forPath(HaPaths.JOBS)) {
      JobSubmission submission =
          SubmissionCodec.decode(client.getData().forPath(HaPaths.job(jobId)));
      String latest = null;
      if (client.checkExists().forPath(HaPaths.latestCheckpoint(jobId)) != null) {
        String pointer = text(client.getData().forPath(HaPaths.latestCheckpoint(jobId)));
        latest = pointer.substring(pointer.indexOf(' ') + 1);
      }
      jobs.add(new StoredJob(jobId, submission, latest));
    }
    return jobs;
  }

  @Override
  public Set<String> listedTaskManagers() throws Exception {
    return new ClusterMembers(zooKeeper)
        .taskManagers().stream()
            .map(ClusterMembers.TaskManagerMember::id)
            .collect(Collectors.toSet());
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (latch != null) {
      try {
        latch.close(LeaderLatch.CloseMode.SILENT);
      } catch (Exception e) {
        LOG.warn("Could not leave the election cleanly: {}", e.toString());
      }
    }
    callbacks.shutdown();
    zooKeeper.close();
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
