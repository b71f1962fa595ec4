package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.devservers.process.ProcessStopper;
import io.weir.devservers.process.RecordedProcess;
import io.weir.devservers.process.RecordedProcess.UnreadableCommandLine;
import io.weir.files.DurableFiles;
import io.weir.lab.process.ChildJvmOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The pid files of a cluster started by {@code weir cluster start} (and of {@code weir zookeeper
 * start}'s server). A pid file outlives a process killed with {@code kill -9}, and the pid may
 * since belong to another program: a process counts as the cluster's only while it is alive and
 * carries the {@link #MARKER} option that {@code cluster start} gives its processes ({@link
 * RecordedProcess}, as the development servers find theirs).
 */
final class ClusterPidFiles {
  /**
   * The first option of every process {@code cluster start} spawns. First, because the JDK reads at
   * most 4,096 characters of another process's command line on Linux, and the class path behind it
   * is longer than that.
   */
  static final String MARKER = "-Dweir.cluster.process=true";

  private static final String JOB_MANAGER = "jobmanager";
  private static final String SUFFIX = ".pid";

  private final Path state;
  private final PrintStream warnings;

  ClusterPidFiles(Path state) {
    this(state, System.err);
  }

  /** {@code warnings} gets one line for each pid file that holds no process id. */
  ClusterPidFiles(Path state, PrintStream warnings) {
    this.state = state;
    this.warnings = warnings;
  }

  Path directory() {
    return state;
  }

  /**
   * Records {@code pid} as the process {@code name}: the file is replaced whole or not at all, so a
   * crash halfway never leaves a pid file that names no process, or another one.
   */
  void write(String name, long pid) throws IOException {
    DurableFiles.writeAtomically(
        state.resolve(name + SUFFIX), (pid + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  /** The running job manager, if this directory's cluster has one. */
  Optional<ProcessHandle> jobManager() {
    return process(JOB_MANAGER);
  }

  /** The running process of that name, if this directory has one. */
  Optional<ProcessHandle> process(String name) {
    return live(state.resolve(name + SUFFIX));
  }

  /**
   * Starts {@code weir ARGS} in a JVM of its own with this JVM's class path, its output in {@code
   * NAME.log} and its pid in {@code NAME.pid} of this directory.
   */
  Process spawn(String name, List<String> args) throws IOException {
    List<String> options = new ArrayList<>(List.of(MARKER, "-Xmx512m"));
    options.addAll(ChildJvmOptions.of(List.of()));
    List<String> mainAndArguments = new ArrayList<>(List.of("io.weir.cli.WeirCli"));
    mainAndArguments.addAll(args);
    Process process = ChildJvmOptions.processBuilder(options, mainAndArguments, log(name)).start();
    write(name, process.pid());
    return process;
  }

  Path log(String name) {
    return state.resolve(name + ".log");
  }

  /** Deletes every pid file; returns the cluster's processes that still run. */
  List<ProcessHandle> removeAll() throws IOException {
    List<ProcessHandle> running = new ArrayList<>();
    if (!Files.isDirectory(state)) {
      return running;
    }
    try (Stream<Path> files = Files.list(state)) {
      for (Path pidFile : files.filter(f -> f.toString().endsWith(SUFFIX)).toList()) {
        live(pidFile).ifPresent(running::add);
        Files.delete(pidFile);
      }
    }
    return running;
  }

  /**
   * Deletes every pid file and stops the cluster's processes that still run: SIGTERM to each, then
   * waits up to {@code wait} for each to exit.
   *
   * @return the processes stopped
   * @throws UserError naming the first process that did not exit in time
   */
  List<ProcessHandle> stopAll(Duration wait) throws IOException {
    List<ProcessHandle> running = removeAll();
    running.forEach(ProcessHandle::destroy);
    for (ProcessHandle process : running) {
      if (!ProcessStopper.awaitExit(process, wait)) {
        throw new UserError(
            "process " + process.pid() + " did not exit within " + wait + " of SIGTERM");
      }
    }
    return running;
  }

  /**
   * The live process {@code pidFile} records, if it is the cluster's. A file that holds no process
   * id (written by hand, or by a version that did not replace it atomically) is reported in one
   * line and counts as no process: stopping whatever a guessed pid names could stop a stranger.
   */
  private Optional<ProcessHandle> live(Path pidFile) {
    if (!Files.exists(pidFile)) {
      return Optional.empty();
    }
    long pid;
    try {
      pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
    } catch (IOException | NumberFormatException e) {
      warnings.println(
          "ignoring the pid file "
              + pidFile
              + ", which holds no process id: "
              + String.valueOf(e.getMessage()).replaceAll("\\R", " "));
      return Optional.empty();
    }
    return RecordedProcess.find(pid, MARKER, UnreadableCommandLine.STRANGER);
  }
}
