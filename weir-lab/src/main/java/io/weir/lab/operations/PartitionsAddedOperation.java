package io.weir.lab.operations;

import io.weir.lab.Topics;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.time.Duration;
import java.util.List;

/**
 * Partitions added to the input topic while a job that started at {@code latest} runs, then the job
 * killed with SIGKILL before it discovered them: the job starts on a two-partition topic, reads
 * records, the topic grows to four partitions and more records arrive on all four, a checkpoint
 * completes without the new partitions, and the job is killed and resumed from that checkpoint.
 * Every record must be in the output once: a partition the checkpoint did not know was added after
 * it and must start at its earliest offset, not at {@code latest}.
 */
final class PartitionsAddedOperation implements Operation {
  private static final int FIRST_PARTITIONS = 2;
  // Longer than the cell: the first job never looks for new partitions, so it is killed before
  // it discovers the added ones, whenever its checkpoints fall.
  private static final Duration NO_DISCOVERY = Duration.ofHours(1);

  @Override
  public String key() {
    return "partitions-added-kill-latest";
  }

  @Override
  public Expectation expectation() {
    return Expectation.EXACTLY_ONCE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    cell.createTopics(FIRST_PARTITIONS);
    List<String> latest = List.of(OperationOptions.STARTING_OFFSETS, "latest");
    List<String> withoutDiscovery =
        List.of(
            OperationOptions.STARTING_OFFSETS,
            "latest",
            OperationOptions.PARTITION_DISCOVERY_INTERVAL,
            Long.toString(NO_DISCOVERY.toMillis()));
    long records = cell.settings().recordsAfterRestart();
    try (RunningJob first =
        cell.start(cell.runArguments(0, List.of("--fresh"), withoutDiscovery), null)) {
      cell.awaitCheckpointAfter(first, -1);
      cell.load(0, records);
      cell.awaitSettled(first);
      Topics.grow(cell.bootstrap(), cell.topics().input(), OperationCell.PARTITIONS);
      cell.load(records, 2 * records);
      long grown = cell.latestCheckpoint().checkpointId();
      CompletedCheckpoint last = cell.awaitCheckpointAfter(first, grown);
      cell.progress(
          "grew the input topic to "
              + OperationCell.PARTITIONS
              + " partitions; killing the job (SIGKILL) after checkpoint "
              + last.checkpointId()
              + ", before it discovers them");
    }
    CompletedCheckpoint restored = cell.latestCheckpoint();
    List<String> resume = List.of("-s", restored.location().toString());
    try (RunningJob second = cell.start(cell.runArguments(0, resume, latest), null)) {
      cell.awaitCheckpointAfter(second, restored.checkpointId());
      cell.awaitSettled(second);
    }
    return OperationOutcome.counted(cell.verdict());
  }
}
