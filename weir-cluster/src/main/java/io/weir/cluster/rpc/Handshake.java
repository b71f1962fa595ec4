package io.weir.cluster.rpc;

import java.io.Serializable;

/**
 * The first messages on every connection: the connecting side says who it is and presents the
 * cluster's shared secret; the accepting side welcomes or refuses it (and then closes).
 */
public final class Handshake {
  private Handshake() {}

  /**
   * @param role who connects: {@code taskmanager}, {@code client} or {@code data}
   * @param secret the shared secret, or an empty string when the cluster has none
   */
  public record Hello(String role, String secret) implements Serializable {}

  public record Welcome() implements Serializable {}

  /** Why the connection was refused, as a line for the user. */
  public record Refused(String reason) implements Serializable {}
}
