package io.weir.devservers.process;

import java.util.Optional;

/**
 * Finds again a process whose pid a file recorded (a server's state file, a cluster's pid file).
 * The file outlives a process killed with {@code kill -9}, and the pid may since belong to another
 * program: a process counts as the recorded one only while it is alive and its command line carries
 * the mark its starter gave it.
 */
public final class RecordedProcess {
  /**
   * What a process whose command line the operating system does not show (another user's, on some
   * systems) counts as.
   */
  public enum UnreadableCommandLine {
    /** The recorded process: stopping a stranger is unlikely, leaving a server running is not. */
    RECORDED,
    /** Another program: a process is stopped only when it is known to be the recorded one. */
    STRANGER
  }

  private RecordedProcess() {}

  /** The live process {@code pid} if it is the recorded one, as {@link #isRecorded} says. */
  public static Optional<ProcessHandle> find(
      long pid, String commandLineMark, UnreadableCommandLine unreadable) {
    return ProcessHandle.of(pid)
        .filter(process -> isRecorded(process, commandLineMark, unreadable));
  }

  /**
   * Whether {@code process} is alive and its command line contains {@code commandLineMark}. The JDK
   * reads a bounded prefix of another process's command line on Linux: a mark behind a long class
   * path may not be seen, so starters put it first.
   */
  public static boolean isRecorded(
      ProcessHandle process, String commandLineMark, UnreadableCommandLine unreadable) {
    return process.isAlive()
        && process
            .info()
            .commandLine()
            .map(line -> line.contains(commandLineMark))
            .orElse(unreadable == UnreadableCommandLine.RECORDED);
  }
}
