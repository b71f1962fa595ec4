package io.weir.cli.web;

import io.weir.cli.error.UserError;
import io.weir.kafka.monitor.KafkaJobMonitor;
import io.weir.runtime.monitor.JobControl;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.web.WebServer;
import io.weir.web.WebServerOptions;
import java.io.PrintStream;
import java.net.BindException;

/** Starts the dashboard of a job manager (a cluster's or a local run's) and says where it is. */
public final class Dashboard {
  private Dashboard() {}

  /**
   * @return the running server, or null when {@code --no-web} was given
   */
  public static WebServer start(
      WebOptions web, WebServerOptions options, JobMonitor monitor, PrintStream out) {
    return start(web, options, monitor, JobControl.NONE, out);
  }

  /**
   * As {@link #start(WebOptions, WebServerOptions, JobMonitor, JobControl, PrintStream)}, but
   * beside the job: returns at once, and the server prints its address once it listens (see {@link
   * DashboardBesideJob}).
   *
   * @return the starting server, or null when {@code --no-web} was given
   */
  public static DashboardBesideJob startBesideJob(
      WebOptions web,
      WebServerOptions options,
      JobMonitor monitor,
      JobControl control,
      PrintStream out) {
    if (!web.enabled()) {
      return null;
    }
    return DashboardBesideJob.start(() -> start(web, options, monitor, control, out), out);
  }

  /**
   * As {@link #start(WebOptions, WebServerOptions, JobMonitor, PrintStream)}, with the API's
   * control requests (a local run's stop and cancel) going to {@code control}.
   *
   * @return the running server, or null when {@code --no-web} was given
   */
  public static WebServer start(
      WebOptions web,
      WebServerOptions options,
      JobMonitor monitor,
      JobControl control,
      PrintStream out) {
    if (!web.enabled()) {
      return null;
    }
    try {
      WebServer server =
          WebServer.start(
              options,
              monitor,
              control,
              new KafkaJobMonitor(),
              message -> out.println("dashboard: " + message));
      out.println(
          "dashboard: "
              + server.url()
              + (options.requiresToken() ? " (token: weir cluster dashboard-token)" : "")
              + "  (REST under /api/v1/, Prometheus at /metrics)");
      return server;
    } catch (BindException e) {
      throw new UserError(e.getMessage() + " (give another --web-port, or --no-web)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while starting the dashboard", e);
    }
  }
}
