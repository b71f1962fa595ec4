package io.weir.lab.crash;

import io.weir.lab.CellTopics;
import io.weir.lab.CommitOrder;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.JobOutput;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs one cell of the matrix against a running broker: creates the cell's topics, runs the job
 * (its own process) under a steady input until the crash point's failpoint halts it, reads the
 * seed's monitors, restarts the job with the cell's recovery, sends more input, waits for the
 * output to settle and compares the committed output with the input, id by id.
 */
final class CellRun {
  private static final int PARTITIONS = 4;

  private final LabJob job;
  private final LabSettings settings;
  private final LabProgress progress;

  CellRun(LabJob job, LabSettings settings, LabProgress progress) {
    this.job = job;
    this.settings = settings;
    this.progress = progress;
  }

  CellResult run(
      String bootstrap, CellTopics topics, CrashPoint crash, Recovery recovery, Path directory)
      throws Exception {
    Files.createDirectories(directory);
    Topics.create(bootstrap, PARTITIONS, topics.input(), topics.output());
    Path checkpoints = directory.resolve("checkpoints");
    CommitOrder order = crash.order();
    long fed = crashUnderLoad(bootstrap, topics, crash, checkpoints, directory);
    JobOutput output = job.output(bootstrap, topics);
    Monitors monitors = Monitors.read(output, bootstrap, topics);
    progress.line("  after the crash (" + fed + " records in): " + monitors.line());
    CompletedCheckpoint latest = LabJob.latestCheckpoint(checkpoints);
    progress.line(
        "  restart: " + recovery.label() + " (latest checkpoint " + latest.checkpointId() + ")");
    List<String> restart =
        job.runArguments(
            order, bootstrap, topics, checkpoints, recovery.runOptions(latest.location()));
    try (JobProcess second =
        JobProcess.start(job.runner(), restart, null, directory.resolve("job-2.log"))) {
      new SeedInput(bootstrap, topics.input())
          .load(fed, fed + settings.recordsAfterRestart(), settings.ratePerSecond() * 4);
      OutputSettling.await(second, output, bootstrap, topics, settings.timeout());
    }
    OutputVerifier.Reading input = new OutputVerifier(bootstrap, topics.input()).read(false);
    OutputVerifier.Verdict verdict = output.read(true).verifyAgainst(input);
    progress.line("  " + verdict.line());
    return new CellResult(
        crash, recovery, Outcome.of(verdict), latest.checkpointId(), monitors, verdict);
  }

  /** Runs the job until the failpoint halts it; returns how many records were fed meanwhile. */
  private long crashUnderLoad(
      String bootstrap, CellTopics topics, CrashPoint crash, Path checkpoints, Path directory)
      throws Exception {
    String failpoints = crash.haltAt(settings.crashHit());
    String orderFailpoints = job.orderFailpoints(crash.order());
    if (orderFailpoints != null) {
      failpoints = failpoints + "," + orderFailpoints;
    }
    progress.line("  job process 1: failpoints " + failpoints);
    List<String> first =
        job.runArguments(crash.order(), bootstrap, topics, checkpoints, List.of("--fresh"));
    try (ContinuousFeed feed =
            ContinuousFeed.start(bootstrap, topics.input(), settings.ratePerSecond(), 0);
        JobProcess process =
            JobProcess.start(job.runner(), first, failpoints, directory.resolve("job-1.log"))) {
      int exit = process.waitFor(settings.timeout().toMillis());
      long fed = feed.stop();
      if (exit != FailpointConfiguration.DEFAULT_HALT_EXIT_CODE) {
        throw new LabFailure(
            (exit == -1
                    ? "the job did not halt"
                    : "the job exited with " + exit + " and did not halt")
                + " at "
                + crash.haltAt(settings.crashHit())
                + " within "
                + settings.timeout().toSeconds()
                + " s; see "
                + process.log());
      }
      return fed;
    }
  }
}
