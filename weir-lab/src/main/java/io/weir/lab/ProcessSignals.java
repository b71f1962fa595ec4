package io.weir.lab;

import java.io.IOException;

/**
 * Signals to the lab's processes other than SIGKILL: {@code SIGSTOP} freezes a process as a hung
 * machine would (its sockets stay open, it answers nothing), {@code SIGCONT} wakes it.
 */
final class ProcessSignals {
  private ProcessSignals() {}

  /** Sends {@code signal} (such as {@code -STOP} or {@code -CONT}) if the process is alive. */
  static void send(JobProcess process, String signal) throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    try {
      int exit =
          new ProcessBuilder("kill", signal, Long.toString(process.pid()))
              .inheritIO()
              .start()
              .waitFor();
      if (exit != 0 && process.isAlive()) {
        throw new LabFailure("kill " + signal + " " + process.pid() + " exited " + exit);
      }
    } catch (IOException e) {
      throw new LabFailure("cannot send " + signal + " to process " + process.pid() + ": " + e);
    }
  }
}
