package io.weir.cli.web;

import io.weir.cli.error.UserError;
import io.weir.web.WebServerOptions;
import picocli.CommandLine.Option;

/** Where the dashboard, REST API and metrics of a job manager listen. */
public final class WebOptions {
  @Option(
      names = "--web-port",
      paramLabel = "PORT",
      description =
          "Port of the dashboard, REST API and /metrics (default 8081; 0: any free port; a taken"
              + " port is reported and a free one used).")
  Integer port;

  @Option(names = "--no-web", description = "No dashboard, REST API or metrics.")
  boolean disabled;

  public boolean enabled() {
    return !disabled;
  }

  /** The port asked for, or the default. */
  public int port() {
    return port == null ? WebServerOptions.DEFAULT_PORT : port;
  }

  /**
   * The server's options.
   *
   * @param host the job manager's host: the dashboard binds where the job manager does
   * @param token the cluster's secret, or empty
   */
  public WebServerOptions toServerOptions(String host, String token) {
    try {
      return new WebServerOptions(host, port(), token);
    } catch (IllegalArgumentException e) {
      throw new UserError("--web-port: " + e.getMessage());
    }
  }
}
