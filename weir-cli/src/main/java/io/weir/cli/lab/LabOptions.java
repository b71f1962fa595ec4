package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.lab.CellTopics;
import io.weir.lab.LabSettings;
import io.weir.lab.process.JobJarFile;
import io.weir.lab.process.LabJob;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of {@code weir lab} that every lab reads, whichever it is: its pace and waits, its
 * directory, topics and report, and the job it runs; checked here, each in one line.
 */
final class LabOptions {
  @Option(
      names = "--minutes",
      description = "How long the soak or the nemesis runs (default: ${DEFAULT-VALUE}).")
  double minutes = 5;

  @Option(
      names = "--dir",
      description = "Working directory, emptied first (default: ${DEFAULT-VALUE}).")
  Path directory = Path.of(".weir", "lab");

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON.")
  Path json;

  @Option(names = "--rate", description = "Input records per second (default: ${DEFAULT-VALUE}).")
  long rate = 500;

  @Option(
      names = "--records",
      description = "Records sent after each restart (default: ${DEFAULT-VALUE}).")
  long records = 1000;

  @Option(
      names = "--crash-at",
      description = "Halt on this pass of the crash point (default: ${DEFAULT-VALUE}).")
  int crashHit = 3;

  @Option(
      names = "--timeout",
      description = "Seconds each wait may take (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds = 90;

  @Option(names = "--random-seed", description = "Seed of the soak's random kills.")
  Long randomSeed;

  @Option(
      names = "--job",
      paramLabel = "CLASS|JAR",
      description =
          "Your job: its main class, or its jar (as weir run takes it). With --nemesis: seed,"
              + " running-count or window-join (default: seed).")
  String jobClass;

  @Option(
      names = {"-c", "--class"},
      paramLabel = "CLASS",
      description = "With a jar: the job class to run (default: the jar's Main-Class).")
  String jarJobClass;

  @Option(names = "--input-topic", description = "Input topic (default: ${DEFAULT-VALUE}).")
  String inputTopic = "foo";

  @Option(names = "--output-topic", description = "Output topic (default: ${DEFAULT-VALUE}).")
  String outputTopic = "bar";

  @Option(
      names = "--sink",
      description =
          "kafka: the seed job into a topic; postgres: a running aggregate per word into an"
              + " embedded PostgreSQL server, exactly once (default: ${DEFAULT-VALUE}).")
  LabSink sink = LabSink.KAFKA;

  @Parameters(paramLabel = "JOB ARGS", description = "More arguments for your job.")
  List<String> jobArguments = new ArrayList<>();

  /** The settings of each cell; a user error names an option out of range. */
  LabSettings settings() {
    if (rate < 1) {
      throw new UserError("--rate must be at least 1, got " + rate);
    }
    if (records < 0) {
      throw new UserError("--records must not be negative, got " + records);
    }
    if (crashHit < 1) {
      throw new UserError("--crash-at counts from 1, got " + crashHit);
    }
    if (minutes <= 0) {
      throw new UserError("--minutes must be positive, got " + minutes);
    }
    return new LabSettings(rate, records, crashHit, timeout());
  }

  Duration timeout() {
    return Duration.ofSeconds(timeoutSeconds);
  }

  /** How long a soak or a nemesis lab runs. */
  Duration duration() {
    return Duration.ofMillis((long) (minutes * 60_000));
  }

  /** The seed of a lab's random choices: the one given, else a new one. */
  long seed() {
    return randomSeed != null ? randomSeed : System.nanoTime();
  }

  CellTopics topics() {
    return CellTopics.of(inputTopic, outputTopic);
  }

  /** Empties the working directory: each lab starts from nothing. */
  void recreateDirectory() throws IOException {
    Directories.deleteRecursively(directory);
    Files.createDirectories(directory);
  }

  /** The job of the matrix and the soak: the seed job, or the user's class or jar. */
  LabJob job() {
    if (jobClass == null) {
      if (!jobArguments.isEmpty() || jarJobClass != null) {
        throw new UserError("Job arguments and -c need --job CLASS|JAR");
      }
      return LabJob.seed();
    }
    if (!JobJarFile.isJar(jobClass)) {
      if (jarJobClass != null) {
        throw new UserError("-c names the job class of a jar, but " + jobClass + " is not a jar");
      }
      return LabJob.user(jobClass, jobArguments);
    }
    // Checked here, so that a missing jar or class is one line before any broker starts.
    JobJarFile jar = JobJarFile.open(jobClass, jarJobClass);
    return LabJob.userJar(jar.path().toAbsolutePath(), jar.jobClass(), jobArguments);
  }
}
