package io.weir.cli.lab;

import static org.awaitility.Awaitility.await;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One run of the seed job on Kafka with topics, group, transactional ids and checkpoints of its
 * own, so that the scenarios of a test class can share one broker: starts job processes (halted by
 * failpoints or killed), feeds input while they run, and reads the output topic.
 */
final class SeedJobScenario {
  static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(400);
  private static final AtomicInteger RUNS = new AtomicInteger();

  private final String bootstrap;
  private final Path directory;
  private final String name;
  private final List<String> jobOptions = new ArrayList<>();
  private Path checkpoints;
  private final SeedInput input;
  private final OutputVerifier output;
  private int processes;

  SeedJobScenario(String bootstrap, Path directory, String... jobOptions) throws Exception {
    this(bootstrap, directory, 4, jobOptions);
  }

  /** A scenario whose input topic starts with {@code partitions} partitions. */
  SeedJobScenario(String bootstrap, Path directory, int partitions, String... jobOptions)
      throws Exception {
    this.bootstrap = bootstrap;
    this.directory = directory;
    this.name = "run" + RUNS.incrementAndGet();
    this.jobOptions.addAll(List.of(jobOptions));
    this.checkpoints = directory.resolve("checkpoints");
    Topics.create(bootstrap, partitions, inputTopic(), outputTopic());
    this.input = new SeedInput(bootstrap, inputTopic());
    this.output = new OutputVerifier(bootstrap, outputTopic());
  }

  /** Adds job options for the processes started from now on. */
  void addJobOptions(String... options) {
    jobOptions.addAll(List.of(options));
  }

  /** The processes started from now on keep their checkpoints in {@code checkpoints}. */
  void useCheckpointDirectory(Path checkpoints) {
    this.checkpoints = checkpoints;
  }

  String inputTopic() {
    return "foo-" + name;
  }

  String outputTopic() {
    return "bar-" + name;
  }

  String group() {
    return "group-" + name;
  }

  String transactionalIdPrefix() {
    return "seed-" + name;
  }

  /**
   * Starts a job process; {@code start} is how the job starts ({@code --fresh}, {@code -s DIR}, or
   * nothing to resume from the latest checkpoint), {@code failpoints} may be null.
   */
  JobProcess start(String failpoints, String... start) throws IOException {
    return start(failpoints, List.of(start), List.of());
  }

  /**
   * Starts a job process with options of {@code weir run} ({@code runOptions}: how it starts,
   * {@code -p}, {@code --accept-data-loss}) and options of the seed job for this process only.
   */
  JobProcess start(String failpoints, List<String> runOptions, List<String> onlyThisProcess)
      throws IOException {
    List<String> args = new ArrayList<>(runOptions);
    args.addAll(
        List.of(
            "--checkpoint-dir",
            checkpoints.toString(),
            "io.weir.examples.SeedJob",
            "--bootstrap",
            bootstrap,
            "--input-topic",
            inputTopic(),
            "--output-topic",
            outputTopic(),
            "--group",
            group(),
            "--transactional-id-prefix",
            transactionalIdPrefix(),
            "--checkpoint-interval",
            Long.toString(CHECKPOINT_INTERVAL.toMillis())));
    args.addAll(jobOptions);
    args.addAll(onlyThisProcess);
    processes++;
    return JobProcess.start(args, failpoints, directory.resolve("job-" + processes + ".log"));
  }

  /** Feeds records {@code from} to {@code to} in the background, at {@code rate} records/s. */
  CompletableFuture<Void> feed(long from, long to, long rate) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            input.load(from, to, rate);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  /**
   * Starts feeding records from 0 at about {@code rate} records/s, in chunks of a tenth of a second
   * from one producer, so that input arrives without pauses while a job runs and whenever it dies
   * (every checkpoint's transactions hold records); {@link ContinuousFeed#stop} returns how many
   * were fed.
   */
  ContinuousFeed feedContinuously(long rate) {
    return ContinuousFeed.start(bootstrap, inputTopic(), rate, 0);
  }

  OutputVerifier.Reading readCommitted() {
    return output.read(true);
  }

  OutputVerifier.Reading readUncommitted() {
    return output.read(false);
  }

  /**
   * Waits until a job process has completed a checkpoint (or died), so that input fed afterwards
   * arrives while it runs, however long its start took.
   */
  void awaitFirstCheckpoint(JobProcess job) {
    Path checkpoints = directory.resolve("checkpoints");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> !job.isAlive() || hasCheckpoint(checkpoints));
  }

  private static boolean hasCheckpoint(Path checkpoints) throws IOException {
    if (!Files.isDirectory(checkpoints)) {
      return false;
    }
    try (var files = Files.walk(checkpoints, 2)) {
      return files.anyMatch(path -> path.getFileName().toString().startsWith("chk-"));
    }
  }

  /** Waits for the process to halt at its failpoint and returns its exit code. */
  static int awaitExit(JobProcess job, Duration timeout) {
    int[] exit = {-1};
    await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              exit[0] = job.waitFor(0);
              return exit[0] != -1;
            });
    return exit[0];
  }

  static String log(JobProcess job) {
    try {
      return Files.readString(job.log());
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
