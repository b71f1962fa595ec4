package io.weir.cli.web;

import io.weir.web.WebServer;
import java.io.PrintStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * A local run's dashboard, started beside its job instead of before it: the job deploys at once,
 * and the server (its event loop, routes, JSON and metrics set up, a few hundred milliseconds of
 * class loading on a cold JVM) comes up on a thread of its own, which prints the address once it
 * listens. A server that cannot start says so in one line; the job runs on without it.
 *
 * <p>Lifecycle: starting -> listening or failed; {@link #close} waits for the start to end, then
 * closes a listening server. Close is called once, by the thread that ran the job.
 */
public final class DashboardBesideJob implements AutoCloseable {
  private final CompletableFuture<WebServer> server;

  private DashboardBesideJob(CompletableFuture<WebServer> server) {
    this.server = server;
  }

  /**
   * Starts {@code start} (which binds, prints the address and returns the server, or throws a user
   * error) on a daemon thread of its own.
   */
  static DashboardBesideJob start(Supplier<WebServer> start, PrintStream out) {
    CompletableFuture<WebServer> server = new CompletableFuture<>();
    Thread starter =
        new Thread(
            () -> {
              try {
                server.complete(start.get());
              } catch (RuntimeException e) {
                out.println("dashboard: " + e.getMessage() + "; the job runs without it");
                server.completeExceptionally(e);
              }
            },
            "weir web start");
    starter.setDaemon(true);
    starter.start();
    return new DashboardBesideJob(server);
  }

  @Override
  public void close() {
    WebServer listening;
    try {
      listening = server.get();
    } catch (ExecutionException failedToStart) {
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.thenAccept(WebServer::close);
      return;
    }
    listening.close();
  }
}
