package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.process.LabCluster;
import io.weir.lab.process.RunningJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps both savepoint operations share, on a cluster of the cell's own while input flows:
 * submit the job, let it complete a few checkpoints, end it with a savepoint by the operation's
 * command, keep input flowing while it is down, resubmit it (from the savepoint with {@code -s}, or
 * plainly, which must resume from the newest of checkpoints and savepoints), let its output settle,
 * cancel it, and count.
 */
public final class SavepointRestart {
  private static final Pattern SUBMITTED = Pattern.compile("submitted job (\\S+)");
  private static final int PARALLELISM = 2;

  private SavepointRestart() {}

  /**
   * @param endCommand the command that ends the job with a savepoint, given the job id and the
   *     savepoint directory
   * @param resumeFromSavepoint whether the resubmission names the savepoint ({@code -s}); else it
   *     is a plain resubmission
   */
  static OperationOutcome run(
      OperationCell cell,
      BiFunction<String, Path, List<String>> endCommand,
      boolean resumeFromSavepoint)
      throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    Path savepoints = cell.directory().resolve("savepoints").toAbsolutePath();
    try (LabCluster cluster =
            LabCluster.start(
                cell.directory().resolve("cluster"), PARALLELISM, cell.settings().timeout());
        ContinuousFeed feed = cell.feed(0)) {
      Path savepoint;
      try (RunningJob first =
          RunningJob.process(
              cluster.submit(
                  cell.runArguments(PARALLELISM, List.of("--fresh"), List.of()),
                  cell.directory().resolve("client-1.log")))) {
        cell.awaitCheckpointAfter(first, 1);
        String jobId = jobId(first);
        String said = cluster.command(endCommand.apply(jobId, savepoints));
        savepoint = savepointPath(said, savepoints);
        cell.progress("job " + jobId + " ended with savepoint " + savepoint);
        first.waitFor(cell.settings().timeout().toMillis());
      }
      List<String> start = resumeFromSavepoint ? List.of("-s", savepoint.toString()) : List.of();
      try (RunningJob second =
          RunningJob.process(
              cluster.submit(
                  cell.runArguments(PARALLELISM, start, List.of()),
                  cell.directory().resolve("client-2.log")))) {
        long fed = feed.stop();
        cell.load(fed, fed + cell.settings().recordsAfterRestart());
        cell.awaitSettled(second);
        cluster.command(List.of("cancel", jobId(second)));
      }
    }
    return OperationOutcome.counted(cell.verdict());
  }

  /** The id the client printed when the job was submitted. */
  static String jobId(RunningJob client) throws IOException {
    return jobId(client.log());
  }

  /** The id the client that logs into {@code clientLog} printed when it submitted the job. */
  public static String jobId(Path clientLog) throws IOException {
    Matcher matcher = SUBMITTED.matcher(Files.readString(clientLog));
    if (!matcher.find()) {
      throw new LabFailure("the client did not print the submitted job's id; see " + clientLog);
    }
    return matcher.group(1);
  }

  /** The savepoint the command named: the last word of its output that is a directory. */
  public static Path savepointPath(String output, Path savepoints) {
    String[] words = output.trim().split("\\s+");
    for (int i = words.length - 1; i >= 0; i--) {
      Path candidate = Path.of(words[i]);
      if (candidate.isAbsolute() && Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new LabFailure(
        "the command named no savepoint directory under " + savepoints + ": " + output.trim());
  }
}
