package io.weir.kafka.broker;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Ends a process: politely (SIGTERM, then SIGKILL after a grace period) or at once (SIGKILL). */
final class ProcessStopper {
  private static final Duration KILL_WAIT = Duration.ofSeconds(15);

  private ProcessStopper() {}

  static void terminate(ProcessHandle process, Duration gracePeriod) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (!awaitExit(process, gracePeriod)) {
      kill(process);
    }
  }

  static void kill(ProcessHandle process) {
    process.destroyForcibly();
    if (!awaitExit(process, KILL_WAIT)) {
      throw new KafkaBrokerException(
          "process " + process.pid() + " did not exit within " + KILL_WAIT + " of SIGKILL");
    }
  }

  private static boolean awaitExit(ProcessHandle process, Duration timeout) {
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
}
