package io.weir.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link SeedJob} in a JVM of its own, as a user's {@code weir run} would, so a failpoint can
 * halt that JVM like {@code kill -9} without touching the test's JVM. Its output and errors go to a
 * file beside the job's directories, read after it ended.
 */
final class SeedJobProcess {
  private static final long TIMEOUT_SECONDS = 60;

  private final Path workDirectory;

  SeedJobProcess(Path workDirectory) {
    this.workDirectory = workDirectory;
  }

  /** What one run left behind. */
  record Outcome(int exitCode, String output) {}

  /**
   * Runs the seed job with {@code failpoints} armed (none when empty) and {@code arguments}, waits
   * at most a minute for it to end, and destroys it if it did not.
   */
  Outcome run(String failpoints, List<String> arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    if (!failpoints.isEmpty()) {
      command.add("-Dweir.failpoints=" + failpoints);
    }
    command.add(SeedJob.class.getName());
    command.addAll(arguments);
    Path log = Files.createTempFile(workDirectory, "seed-", ".log");
    Process process =
        new ProcessBuilder(command)
            .directory(workDirectory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError(
            "The seed job did not end within " + TIMEOUT_SECONDS + " s: " + Files.readString(log));
      }
      return new Outcome(process.exitValue(), Files.readString(log));
    } finally {
      process.destroyForcibly();
    }
  }
}
