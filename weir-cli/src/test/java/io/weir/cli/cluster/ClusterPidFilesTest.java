package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.devservers.process.ProcessStopper;
import java.io.IOException;
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

  /** A shell that waits until it is stopped, with {@code name} on its command line (its $0). */
  private Process shellNamed(String name) throws IOException {
    Process process = new ProcessBuilder("sh", "-c", "while :; do sleep 1; done", name).start();
    started.add(process);
    return process;
  }
}
