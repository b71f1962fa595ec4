package io.weir.cluster.rpc;

import java.io.Serializable;

/** A network address as the user writes it: {@code host:port}. */
public record HostAndPort(String host, int port) implements Serializable {

  /** Parses {@code host:port}; the error names the option and the value. */
  public static HostAndPort parse(String option, String value) {
    int colon = value == null ? -1 : value.lastIndexOf(':');
    if (colon <= 0 || colon == value.length() - 1) {
      throw new IllegalArgumentException(option + " must be HOST:PORT, not '" + value + "'");
    }
    try {
      return new HostAndPort(
          value.substring(0, colon), Integer.parseInt(value.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " has no valid port in '" + value + "'");
    }
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
