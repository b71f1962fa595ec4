package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.process.DashboardPort;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.RunningJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The savepoint operations on the local path, while input flows: start {@code weir run} with its
 * REST API on a port of the cell's own, let it complete a checkpoint, end it with {@code weir stop}
 * or {@code weir cancel --savepoint DIR --web HOST:PORT local-1} (the job process must then exit 0
 * by itself), keep input flowing while it is down, run it again (from the savepoint with {@code
 * -s}, or plainly, which must resume from the newest of checkpoints and savepoints and say so), let
 * its output settle, and count.
 */
final class LocalSavepointRestart {
  private static final int PARALLELISM = 2;
  private static final String JOB_ID = "local-1";

  private LocalSavepointRestart() {}

  /**
   * @param command {@code stop} or {@code cancel}
   * @param resumeFromSavepoint whether the second run names the savepoint ({@code -s}); else it is
   *     a plain resubmission
   */
  static OperationOutcome run(OperationCell cell, String command, boolean resumeFromSavepoint)
      throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    Path savepoints = cell.directory().resolve("savepoints").toAbsolutePath();
    int port = DashboardPort.choose(0, line -> {});
    try (ContinuousFeed feed = cell.feed(0)) {
      Path savepoint;
      try (RunningJob first =
          cell.start(
              cell.runArguments(
                  PARALLELISM, List.of("--fresh", "--web-port", Integer.toString(port)), List.of()),
              null)) {
        cell.awaitCheckpointAfter(first, 1);
        String said =
            command(
                cell,
                List.of(
                    command,
                    "--web",
                    "127.0.0.1:" + port,
                    "--savepoint",
                    savepoints.toString(),
                    JOB_ID));
        savepoint = SavepointRestart.savepointPath(said, savepoints);
        cell.progress("job " + JOB_ID + " ended with savepoint " + savepoint);
        int exit = first.waitFor(cell.settings().timeout().toMillis());
        if (exit != 0) {
          throw JobLog.endedEarly(
              "the job process "
                  + (exit == -1 ? "did not exit" : "exited " + exit)
                  + " after 'weir "
                  + command
                  + " --savepoint'",
              first.log());
        }
      }
      List<String> start = resumeFromSavepoint ? List.of("-s", savepoint.toString()) : List.of();
      try (RunningJob second = cell.start(cell.runArguments(PARALLELISM, start, List.of()), null)) {
        long fed = feed.stop();
        cell.load(fed, fed + cell.settings().recordsAfterRestart());
        cell.awaitSettled(second);
        if (!resumeFromSavepoint) {
          requireResumedFrom(second.log(), savepoint);
        }
      }
    }
    return OperationOutcome.counted(cell.verdict());
  }

  /** {@code weir <arguments>} in a process of its own; its output, or a failure naming its log. */
  private static String command(OperationCell cell, List<String> arguments) throws Exception {
    Path log = cell.directory().resolve(arguments.get(0) + ".log");
    try (JobProcess process = JobProcess.startCommand(new ArrayList<>(arguments), null, log)) {
      int exit = process.waitFor(cell.settings().timeout().toMillis());
      if (exit != 0) {
        throw JobLog.endedEarly(
            "weir " + String.join(" ", arguments) + " " + (exit == -1 ? "hung" : "exited " + exit),
            log);
      }
    }
    return Files.readString(log);
  }

  /** A plain resubmission must resume from the savepoint, the newest, and say so. */
  private static void requireResumedFrom(Path log, Path savepoint) throws Exception {
    String said = Files.readString(log);
    if (!said.contains("resuming from savepoint " + savepoint)) {
      throw new LabFailure(
          "the plain resubmission did not say it resumes from savepoint "
              + savepoint
              + "; see "
              + log);
    }
  }
}
