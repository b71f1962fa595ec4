package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.ListenAddressCheck;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a job manager runs.
 *
 * @param host the address to bind; anything but a loopback address requires a secret, a task
 *     managers' secret of their own and TLS (or plaintext chosen by the operator)
 * @param port the control port (0 picks a free one)
 * @param secret the secret clients (the command line, submitters) must present, or empty
 * @param taskManagerSecret the secret task managers must present; empty means the same as {@code
 *     secret}, which a loopback job manager accepts
 * @param heartbeatTimeout after this long without a heartbeat a task manager is lost
 * @param checkpointDirectory where jobs without their own checkpoint directory keep checkpoints
 * @param tls whether its connections run over TLS
 */
public record JobManagerOptions(
    String host,
    int port,
    String secret,
    String taskManagerSecret,
    Duration heartbeatTimeout,
    Path checkpointDirectory,
    ClusterTls tls) {
  static final String CLIENT_SECRET_SETTING = "cluster.secret in conf/weir.yaml or --secret";
  static final String TASK_MANAGER_SECRET_SETTING =
      "taskmanager.secret in conf/weir.yaml or --taskmanager-secret";

  public JobManagerOptions {
    secret = secret == null ? "" : secret;
    taskManagerSecret =
        taskManagerSecret == null || taskManagerSecret.isEmpty() ? secret : taskManagerSecret;
    tls = tls == null ? ClusterTls.plaintext() : tls;
    ListenAddressCheck.check("the job manager", host, secret, CLIENT_SECRET_SETTING, tls);
    if (!ListenAddressCheck.isLoopback("the job manager", host)
        && taskManagerSecret.equals(secret)) {
      throw new IllegalArgumentException(
          "Binding the job manager to "
              + host
              + " requires a task managers' secret other than the cluster's ("
              + TASK_MANAGER_SECRET_SETTING
              + "), so that a client cannot register as a task manager");
    }
  }

  /** A job manager whose connections are plaintext, with one secret for every role. */
  public JobManagerOptions(
      String host, int port, String secret, Duration heartbeatTimeout, Path checkpointDirectory) {
    this(host, port, secret, "", heartbeatTimeout, checkpointDirectory, ClusterTls.plaintext());
  }

  /** A job manager with one secret for every role. */
  public JobManagerOptions(
      String host,
      int port,
      String secret,
      Duration heartbeatTimeout,
      Path checkpointDirectory,
      ClusterTls tls) {
    this(host, port, secret, "", heartbeatTimeout, checkpointDirectory, tls);
  }

  /** Whether task managers prove a secret of their own, not the clients' one. */
  public boolean taskManagersHaveTheirOwnSecret() {
    return !taskManagerSecret.equals(secret);
  }
}
