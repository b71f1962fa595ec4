package io.weir.lab.operations;

import io.weir.examples.postgres.TotalsTables;
import io.weir.lab.CellTopics;
import io.weir.lab.JobOutput;
import io.weir.lab.LabFailure;
import io.weir.lab.OutputVerifier;
import io.weir.lab.RunningCountVerdict;
import io.weir.lab.SeedRecordsRead;
import io.weir.lab.TableOutput;
import io.weir.lab.process.LabJob;
import java.sql.SQLException;
import java.util.List;

/**
 * The jobs the operations matrix runs each operation with, and how each one's committed output is
 * judged: the seed job by input id (every input id exactly once), the running count by keyed state
 * (each word's committed counts exactly 1..n for its n input records, so a lost or replayed state
 * shows even when every id came out), and the PostgreSQL totals job by querying its tables (every
 * input id once among the committed updates, each word's committed totals equal to the input's).
 */
public enum OperationJob {
  SEED("seed", "io.weir.examples.SeedJob"),
  RUNNING_COUNT("running-count", "io.weir.examples.RunningCountJob"),
  POSTGRES_TOTALS("postgres-totals", "io.weir.examples.postgres.PostgresTotalsJob");

  /** The jobs of {@code weir lab --operations}. */
  public static final List<OperationJob> KAFKA_JOBS = List.of(SEED, RUNNING_COUNT);

  private final String key;
  private final String jobClass;

  OperationJob(String key, String jobClass) {
    this.key = key;
    this.jobClass = jobClass;
  }

  /** The name in the table and the JSON. */
  String key() {
    return key;
  }

  String jobClass() {
    return jobClass;
  }

  /**
   * Whether the matrix runs {@code operation} with this job: the PostgreSQL job runs the operations
   * of a two-phase-commit sink (rescale with a pending transaction, stop with a savepoint); the
   * source-side operations are the Kafka jobs' (its source is theirs). A fresh start drops keyed
   * state by design, so only the seed job, which keeps none, starts fresh after a crash (with or
   * without its checkpoints); the seed job and the PostgreSQL job have a twin sink.
   */
  boolean runs(Operation operation) {
    if (operation instanceof FreshAfterCrashOperation
        || operation instanceof FreshWithoutCheckpointsOperation) {
      return this == SEED;
    }
    if (operation instanceof TwinSinksOperation) {
      return this == SEED || this == POSTGRES_TOTALS;
    }
    return this != POSTGRES_TOTALS
        || operation instanceof RescaleOperation
        || operation instanceof StopWithSavepointOperation;
  }

  /** The arguments that name where the job writes beyond the cell's output topic. */
  List<String> sinkArguments(CellTopics topics, String jdbcUrl) {
    if (this != POSTGRES_TOTALS) {
      return List.of();
    }
    return List.of("--jdbc-url", jdbcUrl, "--table", LabJob.tables(topics).prefix());
  }

  /** Where the job's committed output is read: its output topic, or its table of updates. */
  JobOutput output(String bootstrap, CellTopics topics, String jdbcUrl) {
    return this == POSTGRES_TOTALS
        ? new TableOutput(jdbcUrl, LabJob.tables(topics))
        : new OutputVerifier(bootstrap, topics.output());
  }

  /**
   * Counts the committed output of {@code topics} (or of the job's tables) against their input.
   * Input records that are not seed records (a poison record) are not expected in the output.
   */
  OutputVerifier.Verdict verify(String bootstrap, CellTopics topics, String jdbcUrl)
      throws SQLException {
    return switch (this) {
      case SEED ->
          new OutputVerifier(bootstrap, topics.output())
              .read(true)
              .verifyAgainst(SeedRecordsRead.ids(bootstrap, topics.input()));
      case RUNNING_COUNT -> RunningCountVerdict.verify(bootstrap, topics);
      case POSTGRES_TOTALS -> verifyTables(bootstrap, topics, jdbcUrl, LabJob.tables(topics));
    };
  }

  /** The committed rows of {@code totals}, tables the PostgreSQL job writes, against the input. */
  static OutputVerifier.Verdict verifyTables(
      String bootstrap, CellTopics topics, String jdbcUrl, TotalsTables totals)
      throws SQLException {
    TableOutput tables = new TableOutput(jdbcUrl, totals);
    OutputVerifier.Reading input = SeedRecordsRead.ids(bootstrap, topics.input());
    OutputVerifier.Verdict verdict = tables.read().verifyAgainst(input);
    long wordsOff = tables.wordsOffReference(input);
    if (wordsOff > 0 && verdict.exactlyOnce()) {
      // Every update once, yet a total off: the state was restored wrong. Never call that a pass.
      throw new LabFailure(
          wordsOff + " words' committed totals differ from their input's; " + verdict.line());
    }
    return verdict;
  }
}
