package io.weir.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the launcher's training runs in a JVM of its own, as the launcher does, with every
 * class it loads logged: what the training loads is what its archive holds.
 */
final class TrainingJvm {
  /** How the training ended, what it printed, and the class-load log. */
  record Result(boolean ended, int exitCode, String output, String errors, String loadLog) {
    /** Whether the training loaded the class, from the archive or anywhere else. */
    boolean loaded(String className) {
      return loadLog.contains(" " + className + " source: ");
    }
  }

  private TrainingJvm() {}

  static Result run(Class<?> training, Path directory, Duration timeout, String... jvmOptions)
      throws IOException, InterruptedException {
    return run(training, List.of(), directory, timeout, jvmOptions);
  }

  /** As {@link #run(Class, Path, Duration, String...)}, with arguments for the main class. */
  static Result run(
      Class<?> training,
      List<String> arguments,
      Path directory,
      Duration timeout,
      String... jvmOptions)
      throws IOException, InterruptedException {
    Path loadLog = directory.resolve("classes.log");
    Path output = directory.resolve("training.out");
    Path errors = directory.resolve("training.err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmOptions));
    command.add("-Xlog:class+load=info:file=" + loadLog);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), training.getName()));
    command.addAll(arguments);
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(output.toFile())
            .redirectError(errors.toFile())
            .start();
    boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!ended) {
      process.destroyForcibly().waitFor();
    }
    return new Result(
        ended,
        ended ? process.exitValue() : -1,
        Files.readString(output),
        Files.readString(errors),
        Files.exists(loadLog) ? Files.readString(loadLog) : "");
  }
}
