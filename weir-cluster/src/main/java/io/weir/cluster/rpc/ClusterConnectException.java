package io.weir.cluster.rpc;

import java.io.IOException;

/** A process of the cluster could not be reached, or refused the connection; says which and why. */
public final class ClusterConnectException extends IOException {
  private static final long serialVersionUID = 1L;

  public ClusterConnectException(String message) {
    super(message);
  }

  public ClusterConnectException(String message, Throwable cause) {
    super(message, cause);
  }
}
