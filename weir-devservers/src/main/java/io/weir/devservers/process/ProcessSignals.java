package io.weir.devservers.process;

import java.io.IOException;

/**
 * Signals that the JDK cannot send itself (it sends only SIGTERM and SIGKILL): {@code SIGSTOP}
 * freezes a process as a hung machine would (its sockets stay open, it answers nothing), {@code
 * SIGCONT} wakes it, {@code SIGINT} asks PostgreSQL for its fast shutdown.
 */
public final class ProcessSignals {
  /** A signal by the name kill(1) knows it. */
  public enum Signal {
    STOP,
    CONT,
    INT
  }

  private ProcessSignals() {}

  /** Sends {@code signal} if the process is alive; fails when kill(1) could not deliver it. */
  public static void send(ProcessHandle process, Signal signal) throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    try {
      int exit =
          new ProcessBuilder("kill", "-" + signal.name(), Long.toString(process.pid()))
              .inheritIO()
              .start()
              .waitFor();
      if (exit != 0 && process.isAlive()) {
        throw new DevServerException(
            "kill -" + signal.name() + " " + process.pid() + " exited " + exit);
      }
    } catch (IOException e) {
      throw new DevServerException(
          "cannot send SIG" + signal.name() + " to process " + process.pid() + ": " + e, "", e);
    }
  }
}
