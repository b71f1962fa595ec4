package io.weir.lab.operations;

import io.weir.examples.postgres.TotalsTables;
import io.weir.lab.JobOutput;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.RunningJob;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Two sinks of one job whose transaction names differ only by {@code .} and {@code _}, the names
 * that a mapping of unsafe characters to {@code _} once made one. The seed job: two Kafka sinks
 * with transactional id prefixes {@code P.twin} and {@code P_twin} (one marker topic for both, so
 * that one sink's marker could prove the other's commit). The PostgreSQL job: two sinks into two
 * table sets with sink ids {@code P.twin} and {@code P_twin} (shared global ids and commit-log
 * keys, so that one sink's recovery could roll back the other's prepared transaction and read its
 * twin's commit-log row as its own). The job writes every record to both at parallelism 2 while
 * input flows, halts after a checkpoint completed but before its sinks were told ({@code
 * coordinator.notify.before=halt@N}), so both hold pre-committed transactions, and is resumed from
 * that checkpoint. Each output must hold every input record once (or the job must refuse to build,
 * in one line naming both sinks); with PostgreSQL none of the transactions prepared at the halt may
 * be left in {@code pg_prepared_xacts}.
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
    Twin twin = cell.writesToPostgres() ? postgresTwin(cell) : kafkaTwin(cell);
    PreparedHalt.Halted halted =
        PreparedHalt.run(
            cell, PARALLELISM, FailpointNames.COORDINATOR_NOTIFY_BEFORE, twin.options());
    CompletedCheckpoint latest = halted.latest();
    long fed = halted.fed();
    cell.progress(
        "halted with checkpoint "
            + latest.checkpointId()
            + " complete but not notified in either sink, "
            + fed
            + " records in; resuming");
    List<String> resume = List.of("-s", latest.location().toString());
    Set<String> left;
    try (RunningJob second =
        cell.start(cell.runArguments(PARALLELISM, resume, twin.options()), null)) {
      cell.load(fed, fed + cell.settings().recordsAfterRestart());
      cell.awaitSettled(second);
      cell.awaitSettled(second, twin.output());
      left = cell.stillPrepared(halted.prepared());
    }
    OutputVerifier.Verdict main = cell.verdict();
    OutputVerifier.Verdict other = twin.verdict().get();
    cell.progress("twin sink " + other.line());
    return OperationCell.countedUnlessLeft(
        left,
        new OutputVerifier.Verdict(
            main.in() + other.in(),
            main.out() + other.out(),
            main.lost() + other.lost(),
            main.duplicated() + other.duplicated()));
  }

  /** The second sink: the job options that add it, its output, and its output counted. */
  private record Twin(
      List<String> options, JobOutput output, Supplier<OutputVerifier.Verdict> verdict) {}

  private static Twin kafkaTwin(OperationCell cell) throws Exception {
    String twinTopic = cell.topics().output() + "-twin";
    cell.createTopics(OperationCell.PARTITIONS, twinTopic);
    String prefix = cell.topics().transactionalIdPrefix();
    OutputVerifier output = new OutputVerifier(cell.bootstrap(), twinTopic);
    return new Twin(
        List.of(
            "--transactional-id-prefix",
            prefix + ".twin",
            "--twin-output-topic",
            twinTopic,
            "--twin-transactional-id-prefix",
            prefix + "_twin"),
        output,
        () -> output.read(true).verifyAgainst(cell.input()));
  }

  private static Twin postgresTwin(OperationCell cell) throws Exception {
    cell.createTopics(OperationCell.PARTITIONS);
    String prefix = cell.topics().transactionalIdPrefix();
    TotalsTables tables = new TotalsTables(LabJob.tables(cell.topics()).prefix() + "_twin");
    return new Twin(
        List.of(
            "--sink-id",
            prefix + ".twin",
            "--twin-table",
            tables.prefix(),
            "--twin-sink-id",
            prefix + "_twin"),
        cell.tablesOutput(tables),
        () -> cell.tablesVerdict(tables));
  }
}
