package io.weir.lab.operations;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Retention past the checkpoint while the job is down: the job halts right after its sink committed
 * checkpoint 2, input keeps arriving, then retention deletes all but the last {@value #KEPT}
 * records of each partition — records the job had not read — and the job is resumed from its
 * checkpoint.
 *
 * <p>With the default policy the job must fail with one line naming the topic's partition, the
 * offset and the earliest available offset, and commit nothing after the restart. With {@code
 * --on-out-of-range earliest} it must go on from the earliest retained records: every retained or
 * later record once in the output (the deleted ones are gone by the user's choice).
 */
final class RetentionOperation implements Operation {
  private static final long KEPT = 1000;
  private static final long WHILE_DOWN = 3000;
  private static final int PARTITIONS = 2;

  private final boolean earliestPolicy;

  RetentionOperation(boolean earliestPolicy) {
    this.earliestPolicy = earliestPolicy;
  }

  @Override
  public String key() {
    return earliestPolicy ? "retention-earliest" : "retention-while-down";
  }

  @Override
  public Expectation expectation() {
    return earliestPolicy ? Expectation.EXACTLY_ONCE : Expectation.LOUD_FAILURE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(PARTITIONS);
    String failpoint = FailpointNames.SINK_COMMIT_AFTER + "=halt@2";
    long fed;
    try (ContinuousFeed feed = cell.feed(0);
        RunningJob first =
            cell.start(cell.runArguments(1, List.of("--fresh"), List.of()), failpoint)) {
      cell.awaitHalt(first, failpoint);
      fed = feed.stop();
    }
    cell.load(fed, fed + WHILE_DOWN);
    fed += WHILE_DOWN;
    OutputVerifier.Reading committedBefore = cell.committedOutput();
    Map<Integer, Long> earliest =
        Topics.deleteAllButLast(cell.bootstrap(), cell.topics().input(), KEPT);
    CompletedCheckpoint restored = cell.latestCheckpoint();
    cell.progress(
        "retention left offsets "
            + earliest
            + " onwards; resuming from checkpoint "
            + restored.checkpointId());
    List<String> resume = List.of("-s", restored.location().toString());
    List<String> policy =
        earliestPolicy ? List.of(OperationOptions.ON_OUT_OF_RANGE, "earliest") : List.of();
    try (RunningJob second = cell.start(cell.runArguments(1, resume, policy), null)) {
      if (!earliestPolicy) {
        OperationOutcome failure =
            cell.awaitLoudFailure(second, outOfRange(cell, earliest), committedBefore);
        if (failure != null) {
          return failure;
        }
      }
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(second);
    }
    return OperationOutcome.counted(verdict(cell, committedBefore));
  }

  /**
   * The committed output against what the job had to deliver: the records committed before the
   * deletion plus every record still in the input topic (the deleted ones are not in it).
   */
  private static OutputVerifier.Verdict verdict(
      OperationCell cell, OutputVerifier.Reading committedBefore) {
    OutputVerifier.Reading retained = cell.input();
    Map<Long, Integer> expected = new HashMap<>(retained.counts());
    committedBefore.counts().forEach(expected::putIfAbsent);
    long records = expected.values().stream().mapToLong(Integer::longValue).sum();
    OutputVerifier.Verdict verdict =
        cell.committedOutput().verifyAgainst(new OutputVerifier.Reading(expected, records));
    cell.progress(verdict.line());
    return verdict;
  }

  /** The documented line: it names the input topic and an earliest available offset. */
  private static OperationCell.LoudFailure outOfRange(
      OperationCell cell, Map<Integer, Long> earliest) {
    String topic = cell.topics().input();
    return new OperationCell.LoudFailure() {
      @Override
      public boolean accepts(String line) {
        return line.contains(topic)
            && earliest.values().stream()
                .anyMatch(offset -> Pattern.compile("\\b" + offset + "\\b").matcher(line).find());
      }

      @Override
      public String description() {
        return "a line naming topic " + topic + " and its earliest offsets " + earliest;
      }
    };
  }
}
