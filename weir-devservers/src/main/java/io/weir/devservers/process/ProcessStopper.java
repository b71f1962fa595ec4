package io.weir.devservers.process;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ends a process: politely (a stop signal, then SIGKILL after a grace period) or at once (SIGKILL),
 * and waits until it has exited.
 */
public final class ProcessStopper {
  private static final Duration KILL_WAIT = Duration.ofSeconds(15);

  /** The signal that asks a server to stop; each server names the one it stops quickly on. */
  public enum StopSignal {
    /** SIGTERM, what most servers (the Kafka broker, ZooKeeper, a JVM) shut down on. */
    TERMINATE,
    /** SIGINT: PostgreSQL's fast shutdown (SIGTERM would wait for every client to leave). */
    INTERRUPT
  }

  private ProcessStopper() {}

  /** SIGTERM, then SIGKILL when the process has not exited within {@code gracePeriod}. */
  public static void terminate(ProcessHandle process, Duration gracePeriod) {
    terminate(process, gracePeriod, StopSignal.TERMINATE);
  }

  /** {@code signal}, then SIGKILL when the process has not exited within {@code gracePeriod}. */
  public static void terminate(ProcessHandle process, Duration gracePeriod, StopSignal signal) {
    if (!process.isAlive()) {
      return;
    }
    send(process, signal);
    if (!awaitExit(process, gracePeriod)) {
      kill(process);
    }
  }

  /** SIGKILL, as in a crash; fails when the process is still alive after a while. */
  public static void kill(ProcessHandle process) {
    process.destroyForcibly();
    if (!awaitExit(process, KILL_WAIT)) {
      throw new DevServerException(
          "process " + process.pid() + " did not exit within " + KILL_WAIT + " of SIGKILL");
    }
  }

  /** Whether the process exited within {@code timeout}. */
  public static boolean awaitExit(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  private static void send(ProcessHandle process, StopSignal signal) {
    if (signal == StopSignal.TERMINATE) {
      process.destroy();
      return;
    }
    try {
      ProcessSignals.send(process, ProcessSignals.Signal.INT);
    } catch (DevServerException e) {
      process.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
