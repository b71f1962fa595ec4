package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ClusterTls;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a job manager runs.
 *
 * @param host the address to bind; anything but a loopback address requires a secret
 * @param port the control port (0 picks a free one)
 * @param secret the shared secret task managers and clients must present, or an empty string
 * @param heartbeatTimeout after this long without a heartbeat a task manager is lost
 * @param checkpointDirectory where jobs without their own checkpoint directory keep checkpoints
 * @param tls whether its connections run over TLS
 */
public record JobManagerOptions(
    String host,
    int port,
    String secret,
    Duration heartbeatTimeout,
    Path checkpointDirectory,
    ClusterTls tls) {
  public JobManagerOptions {
    secret = secret == null ? "" : secret;
    tls = tls == null ? ClusterTls.plaintext() : tls;
    if (secret.isEmpty() && !isLoopback(host)) {
      throw new IllegalArgumentException(
          "Binding the job manager to "
              + host
              + " requires a shared secret (cluster.secret in conf/weir.yaml or --secret)");
    }
  }

  /** A job manager whose connections are plaintext. */
  public JobManagerOptions(
      String host, int port, String secret, Duration heartbeatTimeout, Path checkpointDirectory) {
    this(host, port, secret, heartbeatTimeout, checkpointDirectory, ClusterTls.plaintext());
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unknown host '" + host + "' for the job manager");
    }
  }
}
