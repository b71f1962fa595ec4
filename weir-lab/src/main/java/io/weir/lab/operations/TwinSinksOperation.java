package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.List;

/**
 * Two Kafka sinks of one job whose transactional id prefixes differ only by {@code .} and {@code _}
 * ({@code P.twin} and {@code P_twin}), the names that a mapping of unsafe characters to {@code _}
 * once made one: one marker topic for both, so that one sink's marker could prove the other's
 * commit. The seed job writes every record to both at parallelism 2 while input flows, halts after
 * a checkpoint completed but before its sinks were told ({@code coordinator.notify.before=halt@N}),
 * so both hold pre-committed transactions, and is resumed from that checkpoint. Each output must
 * hold every input record once (or the job must refuse to build, in one line naming both sinks).
 */
final class TwinSinksOperation implements Operation {
  private static final int PARALLELISM = 2;

  @Override
  public String key() {
    return "twin-sinks-dot-underscore";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    String twinTopic = cell.topics().output() + "-twin";
    cell.createTopics(OperationCell.PARTITIONS, twinTopic);
    String prefix = cell.topics().transactionalIdPrefix();
    List<String> twins =
        List.of(
            "--transactional-id-prefix",
            prefix + ".twin",
            "--twin-output-topic",
            twinTopic,
            "--twin-transactional-id-prefix",
            prefix + "_twin");
    String failpoint =
        FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=halt@" + cell.settings().crashHit();
    long fed;
    try (ContinuousFeed feed = cell.feed(0);
        RunningJob first =
            cell.start(cell.runArguments(PARALLELISM, List.of("--fresh"), twins), failpoint)) {
      cell.awaitHalt(first, failpoint);
      fed = feed.stop();
    }
    CompletedCheckpoint latest = cell.latestCheckpoint();
    cell.progress(
        "halted with checkpoint "
            + latest.checkpointId()
            + " complete but not notified in either sink, "
            + fed
            + " records in; resuming");
    OutputVerifier twinOutput = new OutputVerifier(cell.bootstrap(), twinTopic);
    List<String> resume = List.of("-s", latest.location().toString());
    try (RunningJob second = cell.start(cell.runArguments(PARALLELISM, resume, twins), null)) {
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(second);
      cell.awaitSettled(second, twinOutput);
    }
    OutputVerifier.Verdict main = cell.verdict();
    OutputVerifier.Verdict twin = twinOutput.read(true).verifyAgainst(cell.input());
    cell.progress("twin sink " + twin.line());
    return OperationOutcome.counted(
        new OutputVerifier.Verdict(
            main.in() + twin.in(),
            main.out() + twin.out(),
            main.lost() + twin.lost(),
            main.duplicated() + twin.duplicated()));
  }
}
