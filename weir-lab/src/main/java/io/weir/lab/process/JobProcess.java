package io.weir.lab.process;

import io.weir.devservers.process.ProcessStopper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A job run as its own JVM ({@code weir run ...}), so that it can be killed like the seed's job
 * processes: with a failpoint that halts it, or with SIGKILL from outside.
 */
public final class JobProcess implements AutoCloseable {
  private final Process process;
  private final Path log;

  private JobProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code weir run <runArgs>} in a new JVM with this JVM's class path; its dashboard on a
   * free port unless {@code runArgs} say otherwise.
   *
   * @param failpoints the failpoint configuration, or null for none
   */
  public static JobProcess start(List<String> runArgs, String failpoints, Path log)
      throws IOException {
    return start(runArgs, List.of(), failpoints, log);
  }

  /**
   * As {@link #start(List, String, Path)}, with {@code jvmOptions} added to the job JVM's command
   * line (a profiler's, a heap size that overrides the default one).
   */
  public static JobProcess start(
      List<String> runArgs, List<String> jvmOptions, String failpoints, Path log)
      throws IOException {
    return launch(
        List.of(),
        JobRunner.COMMAND_LINE.mainClass(),
        jvmOptions,
        runCommand(runArgs),
        failpoints,
        log,
        null);
  }

  /**
   * As {@link #start(List, String, Path)}, in {@code workingDirectory}: where the job's relative
   * paths (its default checkpoint directory) resolve.
   */
  public static JobProcess startIn(
      Path workingDirectory, List<String> runArgs, String failpoints, Path log) throws IOException {
    return launch(
        List.of(),
        JobRunner.COMMAND_LINE.mainClass(),
        List.of(),
        runCommand(runArgs),
        failpoints,
        log,
        workingDirectory);
  }

  private static List<String> runCommand(List<String> runArgs) {
    List<String> arguments = new ArrayList<>(List.of("run"));
    if (!runArgs.contains("--web-port") && !runArgs.contains("--no-web")) {
      // Job processes run side by side (lab cells, tests): each its own free dashboard port.
      arguments.add("--web-port");
      arguments.add("0");
    }
    arguments.addAll(runArgs);
    return arguments;
  }

  /**
   * Starts a job process with {@code runArgs} (the options of {@code weir run}, the job, its
   * arguments): through the command line, or through {@code runner}'s main class.
   *
   * @param failpoints the failpoint configuration, or null for none
   */
  public static JobProcess start(
      JobRunner runner, List<String> runArgs, String failpoints, Path log) throws IOException {
    return runner == JobRunner.COMMAND_LINE
        ? start(runArgs, failpoints, log)
        : launch(List.of(), runner.mainClass(), List.of(), runArgs, failpoints, log, null);
  }

  /**
   * As {@link #start(List, String, Path)}, with the JVM started through {@code launchPrefix} (such
   * as {@code ip netns exec NAME}, which execs it: the process id stays the job's), so that the job
   * runs on a host of its own.
   */
  public static JobProcess startOn(
      List<String> launchPrefix, List<String> runArgs, String failpoints, Path log)
      throws IOException {
    List<String> arguments = new ArrayList<>(List.of("run", "--web-port", "0"));
    arguments.addAll(runArgs);
    return startCommandOn(launchPrefix, arguments, failpoints, log);
  }

  /**
   * As {@link #startCommand(List, String, Path)}, with the JVM started through {@code launchPrefix}
   * (see {@link #startOn}): a job manager, a task manager or a server on a host of its own.
   */
  public static JobProcess startCommandOn(
      List<String> launchPrefix, List<String> arguments, String failpoints, Path log)
      throws IOException {
    return launch(
        launchPrefix,
        JobRunner.COMMAND_LINE.mainClass(),
        List.of(),
        arguments,
        failpoints,
        log,
        null);
  }

  /**
   * Starts {@code weir <arguments>} (any command: a job manager, a task manager, a client) in a new
   * JVM with this JVM's class path, its output appended to {@code log}.
   *
   * @param failpoints the failpoint configuration, or null for none
   */
  public static JobProcess startCommand(List<String> arguments, String failpoints, Path log)
      throws IOException {
    return launch(
        List.of(), JobRunner.COMMAND_LINE.mainClass(), List.of(), arguments, failpoints, log, null);
  }

  /**
   * Runs {@code weir <arguments>} to its end and returns what it printed to {@code log}; throws a
   * failure naming the command and the log when it exits non-zero or outlasts {@code timeout}.
   */
  public static String runCommand(List<String> arguments, Path log, Duration timeout)
      throws IOException, InterruptedException {
    try (JobProcess command = startCommand(arguments, null, log)) {
      int exit = command.waitFor(timeout.toMillis());
      if (exit != 0) {
        throw JobLog.endedEarly(
            "weir " + String.join(" ", arguments) + " " + (exit == -1 ? "hung" : "exited " + exit),
            log);
      }
    }
    return Files.readString(log);
  }

  private static JobProcess launch(
      List<String> launchPrefix,
      String mainClass,
      List<String> jvmOptions,
      List<String> arguments,
      String failpoints,
      Path log,
      Path workingDirectory)
      throws IOException {
    List<String> options = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseSerialGC"));
    options.addAll(ChildJvmOptions.of(jvmOptions));
    options.addAll(jvmOptions);
    if (failpoints != null) {
      options.add("-Dweir.failpoints=" + failpoints);
    }
    List<String> mainAndArguments = new ArrayList<>(List.of(mainClass));
    mainAndArguments.addAll(arguments);
    ProcessBuilder builder = ChildJvmOptions.processBuilder(options, mainAndArguments, log);
    List<String> command = new ArrayList<>(launchPrefix);
    command.addAll(builder.command());
    builder.command(command);
    builder.environment().remove("WEIR_FAILPOINTS");
    if (workingDirectory != null) {
      builder.directory(workingDirectory.toFile());
    }
    return new JobProcess(builder.start(), log);
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Waits for the process to end; returns its exit code, or -1 after the timeout. */
  public int waitFor(long millis) throws InterruptedException {
    return process.waitFor(millis, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }

  /** SIGKILL, as {@code kill -9}. */
  public void kill() {
    ProcessStopper.kill(process.toHandle());
  }

  /** The process, for signals other than SIGKILL. */
  public ProcessHandle handle() {
    return process.toHandle();
  }

  public Path log() {
    return log;
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
