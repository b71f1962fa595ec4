package io.weir.cluster.rpc;

import java.io.IOException;

/** A process of the cluster could not be reached, or refused the connection; says which and why. */
public final class ClusterConnectException extends IOException {
  private static final long serialVersionUID = 1L;

  private final boolean refused;

  public ClusterConnectException(String message) {
    this(message, null, false);
  }

  public ClusterConnectException(String message, Throwable cause) {
    this(message, cause, false);
  }

  private ClusterConnectException(String message, Throwable cause, boolean refused) {
    super(message, cause);
    this.refused = refused;
  }

  /** The peer answered and said no (a wrong secret, say): trying again will not help. */
  public static ClusterConnectException refused(String message) {
    return new ClusterConnectException(message, null, true);
  }

  public boolean isRefusal() {
    return refused;
  }
}
