package io.weir.web;

/**
 * Where the dashboard listens and whom it answers.
 *
 * @param host the address to bind; loopback unless the cluster has a secret
 * @param port the port; 0 for any free port
 * @param token the dashboard's token (never the cluster's secret), required on every API and
 *     metrics request when not empty
 */
public record WebServerOptions(String host, int port, String token) {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 8081;

  public WebServerOptions {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("The web port " + port + " is not between 0 and 65535");
    }
    token = token == null ? "" : token;
  }

  public boolean requiresToken() {
    return !token.isEmpty();
  }
}
