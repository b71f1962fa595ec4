package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Jobs run in a child process with a small heap, killed with SIGKILL and resumed from their
 * checkpoints, for the tests that show RocksDB's state beyond the heap.
 *
 * @param localRoot where the children's RocksDB working directories go
 * @param logs where each run's output goes, named by the run
 */
record ChildJobs(Path localRoot, Path logs) {

  /** Starts {@code mainClass} with {@code -Xmx128m} and {@code args}; output to {@code run}.log. */
  Process start(Class<?> mainClass, String run, List<String> args) throws IOException {
    return start(mainClass, run, 128, args);
  }

  /** Starts {@code mainClass} with a heap of {@code heapMegabytes} and {@code args}. */
  Process start(Class<?> mainClass, String run, int heapMegabytes, List<String> args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heapMegabytes + "m");
    command.add("-XX:+UseSerialGC");
    command.add("-D" + LocalWorkingDirectories.ROOT_PROPERTY + "=" + localRoot);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(args);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(logs.resolve(run + ".log").toFile())
        .start();
  }

  /** SIGKILL, as {@code kill -9}: no shutdown hook, no clean-up. */
  static void kill(Process process) throws InterruptedException {
    process.destroyForcibly();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  static void awaitCheckpointAfter(Path jobDirectory, long checkpointId) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> latestCheckpoint(jobDirectory) > checkpointId);
  }

  static long latestCheckpoint(Path jobDirectory) throws IOException {
    for (Path directory : CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory)) {
      if (Files.exists(directory.resolve("_metadata"))) {
        return CheckpointLayout.checkpointIdOf(directory).getAsLong();
      }
    }
    return 0;
  }

  /**
   * The lines of every committed part file ({@code part-*}) in {@code output}, in file order;
   * in-progress ones have names that start with a dot.
   */
  static List<String> committedLines(Path output) throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(output)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        if (file.getFileName().toString().startsWith("part-")) {
          lines.addAll(Files.readAllLines(file));
        }
      }
    }
    return lines;
  }

  /** All key groups of operator {@code operatorUid} in {@code checkpoint}, in one backend. */
  static KeyedStateBackend restoreAll(CompletedCheckpoint checkpoint, String operatorUid)
      throws Exception {
    OperatorState operator = checkpoint.operators().get(operatorUid);
    Map<Integer, byte[]> keyGroups = new HashMap<>();
    operator.subtasks().values().forEach(subtask -> keyGroups.putAll(subtask.keyGroups()));
    return new RocksDbStateBackendFactory()
        .create(
            new KeyedBackendContext(
                "verify",
                operatorUid,
                0,
                new KeyGroupRange(0, 127),
                128,
                new OperatorSubtaskState(Map.of(), Map.of(), keyGroups, checkpoint.location()),
                id -> Optional.empty()));
  }
}
