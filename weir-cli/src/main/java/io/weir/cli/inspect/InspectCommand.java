package io.weir.cli.inspect;

import io.weir.cli.error.UserError;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.explain.CheckpointContents;
import io.weir.runtime.checkpoint.explain.CheckpointExplanation;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir inspect}: explains a recovery before it is made — what the checkpoint holds, which
 * transactions are pending and whether the broker still has them open, where the consumer group
 * stands, and what restoring from the checkpoint or from the group's offsets would do.
 */
@Command(
    name = "inspect",
    description =
        "Explain what restoring a checkpoint, or restarting from the group's offsets, would do.")
public final class InspectCommand implements Runnable {
  @Parameters(
      index = "0",
      paramLabel = "CHECKPOINT",
      description = "A chk-N or savepoint directory, or a job's checkpoint directory (its newest).")
  Path checkpoint;

  @Option(names = "--bootstrap", description = "The Kafka broker, to compare with its state.")
  String bootstrap;

  @Option(
      names = "--group",
      description = "The source's consumer group (default: ${DEFAULT-VALUE}).")
  String group = "weir-seed";

  @Override
  public void run() {
    CompletedCheckpoint loaded;
    try {
      loaded =
          CheckpointLoader.load(
              checkpoint,
              (location, reason) ->
                  System.out.println("skipped broken checkpoint " + location + ": " + reason));
    } catch (java.io.IOException e) {
      throw new UserError(e.getMessage(), e);
    }
    CheckpointContents contents = CheckpointContents.of(loaded);
    try {
      System.out.println(CheckpointExplanation.of(loaded, contents));
    } catch (java.io.IOException e) {
      throw new UserError("Cannot read the state file listings of " + loaded.location(), e);
    }
    if (bootstrap == null) {
      System.out.println("(give --bootstrap to compare with the broker and the consumer group)");
      return;
    }
    explain(contents);
  }

  private void explain(CheckpointContents contents) {
    Map<String, Long> groupOffsets = groupOffsets();
    Set<String> stillOpen = openTransactionIds();
    long checkpointed = contents.totalPositions();
    long committed = groupOffsets.values().stream().mapToLong(Long::longValue).sum();
    long pendingOpen =
        contents.pendingTransactions().stream()
            .filter(t -> stillOpen.stream().anyMatch(t::contains))
            .count();
    System.out.println(
        "  group '" + group + "' offsets: " + CheckpointExplanation.describe(groupOffsets));
    System.out.println(
        "  pending transactions still open on the broker: "
            + pendingOpen
            + " of "
            + contents.pendingTransactions().size());
    System.out.println("what each recovery would do:");
    System.out.println(
        "  from the checkpoint (-s "
            + checkpoint
            + "): sources resume at the checkpoint's offsets and the sink commits its pending"
            + " transactions (a replayed commit is quiet): exactly-once.");
    String fromGroup;
    if (committed < checkpointed) {
      fromGroup =
          pendingOpen > 0
              ? "sources re-read "
                  + (checkpointed - committed)
                  + " records the open pending transaction also holds, and the start aborts it:"
                  + " exactly-once for those, if the group is exactly one checkpoint behind"
              : "sources re-read "
                  + (checkpointed - committed)
                  + " records whose output is already committed: about that many duplicates";
    } else if (pendingOpen > 0) {
      fromGroup =
          "the group already committed the checkpoint's offsets, and the start aborts its open"
              + " pending transaction(s): their records are lost";
    } else {
      fromGroup = "the group's offsets match the checkpoint: exactly-once";
    }
    System.out.println(
        "  from the group's offsets (--from-group-offsets) with the job's --checkpoint-dir, this"
            + " checkpoint being its newest: the start commits the pending transactions and moves"
            + " the group's offsets forward to the checkpoint's: exactly-once.");
    System.out.println(
        "  from the group's offsets without the checkpoint directory: " + fromGroup + ".");
  }

  private Map<String, Long> groupOffsets() {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      Map<String, Long> offsets = new TreeMap<>();
      Map<org.apache.kafka.common.TopicPartition, OffsetAndMetadata> committed =
          admin
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get(15, TimeUnit.SECONDS);
      committed.forEach(
          (partition, offset) -> {
            if (offset != null) {
              offsets.put(partition.topic() + "-" + partition.partition(), offset.offset());
            }
          });
      return offsets;
    } catch (Exception e) {
      throw new UserError("Cannot read the offsets of group '" + group + "' from " + bootstrap, e);
    }
  }

  private Set<String> openTransactionIds() {
    try (LingeringTransactions transactions =
        new LingeringTransactions(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      return transactions.list("").stream()
          .map(OpenTransaction::transactionalId)
          .collect(Collectors.toSet());
    }
  }
}
