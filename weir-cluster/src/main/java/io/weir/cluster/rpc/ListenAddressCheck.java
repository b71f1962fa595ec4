package io.weir.cluster.rpc;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What a cluster listener needs before it binds an address other processes can reach: a secret
 * (without one, anyone who reaches the port is admitted) and TLS (without it, the secret's proofs
 * travel in the clear and the frames after the handshake carry no integrity check), unless the
 * operator chose plaintext. A loopback address is reachable only from this host and needs neither.
 */
public final class ListenAddressCheck {
  private ListenAddressCheck() {}

  /**
   * Refuses, in one line naming {@code listener} and the fix, a host off loopback without a secret
   * or without TLS.
   *
   * @param listener what binds, e.g. {@code the job manager}
   * @param secretSetting where the missing secret is configured
   * @throws IllegalArgumentException with that line
   */
  public static void check(
      String listener, String host, String secret, String secretSetting, ClusterTls tls) {
    if (isLoopback(listener, host)) {
      return;
    }
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException(
          "Binding "
              + listener
              + " to "
              + host
              + " requires a shared secret ("
              + secretSetting
              + ")");
    }
    if (!tls.acceptableOffLoopback()) {
      throw new IllegalArgumentException(
          "Binding "
              + listener
              + " to "
              + host
              + " requires TLS: make the cluster's key pair with `weir cluster cert` and set"
              + " cluster.tls.keystore, or set cluster.tls: off to accept plaintext");
    }
  }

  /** Whether {@code host} is a loopback address. */
  public static boolean isLoopback(String listener, String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unknown host '" + host + "' for " + listener);
    }
  }
}
