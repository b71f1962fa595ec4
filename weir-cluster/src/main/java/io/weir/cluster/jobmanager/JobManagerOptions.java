package io.weir.cluster.jobmanager;

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
 */
public record JobManagerOptions(
    String host, int port, String secret, Duration heartbeatTimeout, Path checkpointDirectory) {
  public JobManagerOptions {
    secret = secret == null ? "" : secret;
    if (secret.isEmpty() && !isLoopback(host)) {
      throw new IllegalArgumentException(
          "Binding the job manager to "
              + host
              + " requires a shared secret (cluster.secret in conf/weir.yaml or --secret)");
    }
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unknown host '" + host + "' for the job manager");
    }
  }
}
