package io.weir.lab.nemesis;

import io.weir.lab.process.JobProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps one of the lab's processes running on its host, as a process supervisor of a production
 * host does: the local job, or a process of the highly available cluster (ZooKeeper, a job manager,
 * a task manager). A process that exits on its own (a failure it does not survive in process) is
 * started again at once with the same command line, so a job resumes from its latest checkpoint. A
 * kill by the nemesis is not restarted here: the nemesis restarts the process when it heals the
 * fault.
 *
 * <p>Methods are thread-safe; the restart after an exit runs on the thread that saw the process
 * end.
 */
final class JobSupervisor implements JobDeployment {
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
  private final String name;
  private final List<String> command;
  private final Path directory;
  private final NemesisLog log;
  private SupervisedState state = SupervisedState.KILLED;
  private JobProcess process;
  private int starts;
  private int unexpectedExits;

  /** Supervises the local job: {@code weir run <runArguments>}, logs {@code job-N.log}. */
  JobSupervisor(LabHost host, List<String> runArguments, Path directory, NemesisLog log) {
    this(host, "job", runCommand(runArguments), directory, log);
  }

  /**
   * Supervises {@code weir <command>} on {@code host}, named {@code name} in the lab's log and in
   * its own logs ({@code name-N.log} in {@code directory}, one per start).
   */
  JobSupervisor(LabHost host, String name, List<String> command, Path directory, NemesisLog log) {
    this.host = host;
    this.name = name;
    this.command = List.copyOf(command);
    this.directory = directory;
    this.log = log;
  }

  private static List<String> runCommand(List<String> runArguments) {
    List<String> command = new ArrayList<>(List.of("run", "--web-port", "0"));
    command.addAll(runArguments);
    return command;
  }

  /** The process's name in the lab's log, e.g. {@code job} or {@code taskmanager-2}. */
  String name() {
    return name;
  }

  /** The host it runs on. */
  LabHost host() {
    return host;
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

  /** The process running now, for signals. */
  synchronized ProcessHandle handle() {
    return process.handle();
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

  @Override
  public List<LabHost> kafkaClientHosts() {
    return List.of(host);
  }

  @Override
  public List<List<JobSupervisor>> processGroups() {
    return List.of(List.of(this));
  }

  @Override
  public boolean runs() {
    return isSupervised();
  }

  /** The log of the process running now (or last). */
  @Override
  public synchronized Path log() {
    return process.log();
  }

  /** How often the process ended without being killed by the nemesis. */
  @Override
  public synchronized int unexpectedExits() {
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
    Path processLog = directory.resolve(name + "-" + starts + ".log");
    try {
      process = JobProcess.startCommandOn(host.launchPrefix(), command, null, processLog);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " on " + host.name(), e);
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
    log.event(name + " exited with code " + code + " (see " + ended.log() + "); starting it again");
    launch();
  }

  private void moveTo(SupervisedState next) {
    if (!state.canMoveTo(next)) {
      throw new IllegalStateException(
          name + "'s supervisor cannot move from " + state + " to " + next);
    }
    state = next;
  }
}
