package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.devservers.process.ProcessStopper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterPidFilesTest {
  @TempDir Path state;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killStarted() {
    started.forEach(process -> ProcessStopper.kill(process.toHandle()));
  }

  @Test
  void when_stoppingAll_then_theClustersProcessesExitAndEveryPidFileIsGone() throws IOException {
    // given: two processes of the cluster, with their pid files
    ClusterPidFiles pids = new ClusterPidFiles(state);
    Process jobManager = shellNamed(ClusterPidFiles.MARKER);
    Process taskManager = shellNamed(ClusterPidFiles.MARKER);
    pids.write("jobmanager", jobManager.pid());
    pids.write("taskmanager-1", taskManager.pid());

    // when
    List<ProcessHandle> stopped = pids.stopAll(Duration.ofSeconds(10));

    // then
    assertThat(stopped)
        .extracting(ProcessHandle::pid)
        .containsExactlyInAnyOrder(jobManager.pid(), taskManager.pid());
    assertThat(jobManager.isAlive()).isFalse();
    assertThat(taskManager.isAlive()).isFalse();
    try (var files = Files.list(state)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void when_aPidFileNamesAnotherProgram_then_itIsNeitherTheClustersNorStopped() throws IOException {
    // given: a pid file left by a process killed with SIGKILL whose pid another program took
    ClusterPidFiles pids = new ClusterPidFiles(state);
    Process stranger = shellNamed("another-program");
    pids.write("jobmanager", stranger.pid());

    // when
    boolean counted = pids.jobManager().isPresent();
    List<ProcessHandle> stopped = pids.stopAll(Duration.ofSeconds(10));

    // then
    assertThat(counted).isFalse();
    assertThat(stopped).isEmpty();
    assertThat(stranger.isAlive()).isTrue();
    assertThat(state.resolve("jobmanager.pid")).doesNotExist();
  }

  @Test
  void when_aPidFileHoldsNoProcessId_then_itIsNamedInOneLineAndOnlyRecordedProcessesStop()
      throws IOException {
    // given: the job manager with its pid file, and a task manager whose pid file is empty, as a
    // crash in the middle of a write that was not atomic left it
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    ClusterPidFiles pids =
        new ClusterPidFiles(state, new PrintStream(warnings, true, StandardCharsets.UTF_8));
    Process jobManager = shellNamed(ClusterPidFiles.MARKER);
    Process taskManager = shellNamed(ClusterPidFiles.MARKER);
    pids.write("jobmanager", jobManager.pid());
    Path unreadable = state.resolve("taskmanager-1.pid");
    Files.writeString(unreadable, "");

    // when
    boolean counted = pids.process("taskmanager-1").isPresent();
    List<ProcessHandle> stopped = pids.stopAll(Duration.ofSeconds(10));

    // then: the recorded process stopped; the other one, which no pid names, is left running, and
    // each look at the file said so in one line naming it
    assertThat(counted).isFalse();
    assertThat(stopped).extracting(ProcessHandle::pid).containsExactly(jobManager.pid());
    assertThat(jobManager.isAlive()).isFalse();
    assertThat(taskManager.isAlive()).isTrue();
    assertThat(warnings.toString(StandardCharsets.UTF_8).lines())
        .hasSize(2)
        .allSatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "ignoring the pid file " + unreadable + ", which holds no process id"));
    try (var files = Files.list(state)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void when_aPidFileIsReplaced_then_itHoldsTheNewPidAndNoTemporaryFileIsLeft() throws IOException {
    // given
    ClusterPidFiles pids = new ClusterPidFiles(state);
    pids.write("jobmanager", 41);

    // when
    pids.write("jobmanager", 42);

    // then
    try (var files = Files.list(state)) {
      assertThat(files).containsExactly(state.resolve("jobmanager.pid"));
    }
    assertThat(Files.readString(state.resolve("jobmanager.pid"))).isEqualTo("42\n");
  }

  /** A shell that waits until it is stopped, with {@code name} on its command line (its $0). */
  private Process shellNamed(String name) throws IOException {
    Process process = new ProcessBuilder("sh", "-c", "while :; do sleep 1; done", name).start();
    started.add(process);
    return process;
  }
}
