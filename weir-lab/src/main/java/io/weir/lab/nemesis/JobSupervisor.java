package io.weir.lab.nemesis;

import io.weir.lab.process.JobProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Keeps the lab's job running on its host, as a process supervisor of a production host does: a job
 * process that exits on its own (a failure it does not survive in process) is started again at
 * once, on the same checkpoint directory, so it resumes from its latest checkpoint. A kill by the
 * nemesis is not restarted here: the nemesis restarts the job when it heals the fault.
 *
 * <p>Methods are thread-safe; the restart after an exit runs on the thread that saw the process
 * end.
 */
final class JobSupervisor implements AutoCloseable {
  /** RUNNING -> KILLED -> RUNNING; any -> CLOSED. */
  enum SupervisedState {
    RUNNING,
    KILLED,
    CLOSED;

    boolean canMoveTo(SupervisedState next) {
      return switch (this) {
        case RUNNING -> next == KILLED || next == CLOSED;
        case KILLED -> next == RUNNING || next == CLOSED;
        case CLOSED -> false;
      };
    }
  }

  private final LabHost host;
  private final List<String> runArguments;
  private final Path directory;
  private final NemesisLog log;
  private SupervisedState state = SupervisedState.KILLED;
  private JobProcess process;
  private int starts;
  private int unexpectedExits;

  JobSupervisor(LabHost host, List<String> runArguments, Path directory, NemesisLog log) {
    this.host = host;
    this.runArguments = List.copyOf(runArguments);
    this.directory = directory;
    this.log = log;
  }

  /** Starts the job (the first time, or after {@link #kill}). */
  synchronized void start() {
    moveTo(SupervisedState.RUNNING);
    launch();
  }

  /** SIGKILL to the job's process; it stays down until {@link #start}. */
  synchronized void kill() {
    moveTo(SupervisedState.KILLED);
    process.kill();
  }

  synchronized long pid() {
    return process.pid();
  }

  synchronized boolean isRunning() {
    return state == SupervisedState.RUNNING && process.isAlive();
  }

  /**
   * Whether a job should run: started and not killed (a process that exited is being restarted).
   */
  synchronized boolean isSupervised() {
    return state == SupervisedState.RUNNING;
  }

  /** The log of the process running now (or last). */
  synchronized Path log() {
    return process.log();
  }

  /** How often the job's process ended without being killed by the nemesis. */
  synchronized int unexpectedExits() {
    return unexpectedExits;
  }

  @Override
  public synchronized void close() throws InterruptedException {
    if (state != SupervisedState.CLOSED) {
      moveTo(SupervisedState.CLOSED);
    }
    if (process != null) {
      process.close();
    }
  }

  private void launch() {
    starts++;
    Path processLog = directory.resolve("job-" + starts + ".log");
    try {
      process = JobProcess.startOn(host.launchPrefix(), runArguments, null, processLog);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the job on " + host.name(), e);
    }
    JobProcess started = process;
    started.handle().onExit().thenRun(() -> exited(started));
  }

  private synchronized void exited(JobProcess ended) {
    if (ended != process || state != SupervisedState.RUNNING) {
      return;
    }
    unexpectedExits++;
    int code;
    try {
      code = ended.waitFor(0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    log.event("job exited with code " + code + " (see " + ended.log() + "); starting it again");
    launch();
  }

  private void moveTo(SupervisedState next) {
    if (!state.canMoveTo(next)) {
      throw new IllegalStateException("job supervisor cannot move from " + state + " to " + next);
    }
    state = next;
  }
}
