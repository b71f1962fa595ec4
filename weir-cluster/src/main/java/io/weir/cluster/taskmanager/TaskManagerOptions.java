package io.weir.cluster.taskmanager;

import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.ListenAddressCheck;
import java.time.Duration;

/**
 * How a task manager runs.
 *
 * @param jobManager where the job manager listens
 * @param slots how many parallel subtasks of each task it runs at most
 * @param dataHost the address it listens on for records from other task managers; anything but a
 *     loopback address requires a secret and TLS (or plaintext chosen by the operator)
 * @param secret the task managers' secret (proven to the job manager and to each other), or empty
 * @param heartbeatInterval how often it tells the job manager it is alive
 * @param tls whether its connections (to the job manager, and for records) run over TLS
 */
public record TaskManagerOptions(
    HostAndPort jobManager,
    int slots,
    String dataHost,
    String secret,
    Duration heartbeatInterval,
    ClusterTls tls) {
  static final String SECRET_SETTING =
      "taskmanager.secret or cluster.secret in conf/weir.yaml, or --taskmanager-secret";

  public TaskManagerOptions {
    tls = tls == null ? ClusterTls.plaintext() : tls;
    if (slots < 1) {
      throw new IllegalArgumentException("--slots must be at least 1, not " + slots);
    }
    ListenAddressCheck.check("the task manager's data port", dataHost, secret, SECRET_SETTING, tls);
  }

  /** A task manager whose connections are plaintext. */
  public TaskManagerOptions(
      HostAndPort jobManager,
      int slots,
      String dataHost,
      String secret,
      Duration heartbeatInterval) {
    this(jobManager, slots, dataHost, secret, heartbeatInterval, ClusterTls.plaintext());
  }
}
