package io.weir.cluster.ha;

import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.jobmaster.CheckpointFencing;
import java.util.List;
import java.util.Set;

/** A lone job manager: leader from the start in epoch 0; jobs end with it. */
final class NoHighAvailability implements JobManagerHighAvailability {
  @Override
  public void runForLeadership(HostAndPort address, long pid, LeadershipListener listener) {
    listener.granted(new LeaderEpoch(0, -1));
  }

  /** A lone job manager's writes are never refused, so it never has to step down. */
  @Override
  public void stepDown(LeaderEpoch epoch) {}

  @Override
  public boolean confirmLeadership(LeaderEpoch epoch) {
    return true;
  }

  @Override
  public CheckpointFencing checkpointFencing() {
    return CheckpointFencing.LEASE;
  }

  @Override
  public boolean isLeader() {
    return true;
  }

  @Override
  public String leaderDescription() {
    return "this job manager";
  }

  @Override
  public void storeJob(LeaderEpoch epoch, String jobId, JobSubmission submission) {}

  @Override
  public void removeJob(LeaderEpoch epoch, String jobId) {}

  @Override
  public void pointToCheckpoint(
      LeaderEpoch epoch, String jobId, long checkpointId, String location) {}

  @Override
  public void claimCheckpointId(LeaderEpoch epoch, String jobId, long checkpointId) {}

  @Override
  public long lastClaimedCheckpointId(String jobId) {
    return 0;
  }

  @Override
  public List<StoredJob> storedJobs() {
    return List.of();
  }

  @Override
  public Set<String> listedTaskManagers() {
    return Set.of();
  }

  @Override
  public void close() {}
}
