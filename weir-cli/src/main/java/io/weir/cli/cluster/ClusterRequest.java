package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClusterConnectException;

/**
 * Runs one request against the job manager; its failures become one-line user errors. With high
 * availability a request that cannot reach the leader is tried again with the leader ZooKeeper
 * names then, for up to {@link ClusterHighAvailability#LEADER_WAIT}: while a standby takes over,
 * ZooKeeper may still name the dead leader.
 */
final class ClusterRequest {
  interface Call<T> {
    T on(ClusterClient client) throws ClusterConnectException, InterruptedException;
  }

  private static final long RETRY_PAUSE_MILLIS = 500;

  private ClusterRequest() {}

  static <T> T run(ClusterOptions options, Call<T> call) {
    boolean retry = options.highAvailability().isPresent() && options.jobManager == null;
    long deadline = System.nanoTime() + ClusterHighAvailability.LEADER_WAIT.toNanos();
    while (true) {
      try (ClusterClient client = options.client()) {
        return call.on(client);
      } catch (ClusterConnectException e) {
        if (!retry || e.isRefusal() || System.nanoTime() > deadline) {
          throw new UserError(e.getMessage(), e);
        }
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UserError("Interrupted while talking to the job manager");
      }
      try {
        Thread.sleep(RETRY_PAUSE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UserError("Interrupted while talking to the job manager");
      }
    }
  }
}
