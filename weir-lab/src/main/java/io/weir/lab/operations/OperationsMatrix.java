package io.weir.lab.operations;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.lab.CellTopics;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.LabUserError;
import io.weir.lab.process.LabBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The operations matrix: every operation, for the seed job and for the running count, each cell
 * with its own topics, group, transactional ids and checkpoints on one broker. A cell that cannot
 * be carried out is reported as failed; the others still run.
 */
public final class OperationsMatrix {
  /** Every operation, in the order the matrix runs them. */
  static final List<Operation> OPERATIONS =
      List.of(
          new RescaleOperation(1, 1),
          new RescaleOperation(1, 2),
          new RescaleOperation(2, 4),
          new RescaleOperation(4, 1),
          new RescaleOperation(4, 1, RescaleOperation.Halt.BEFORE_COMPLETION),
          new StopWithSavepointOperation(),
          new CancelWithSavepointOperation(),
          new RetentionOperation(false),
          new RetentionOperation(true),
          new LatestStartOperation(),
          new PartitionsAddedOperation(),
          new PoisonRecordOperation(false),
          new PoisonRecordOperation(true),
          new SecondRunnerOperation(),
          new FreshAfterCrashOperation(),
          new FreshWithoutCheckpointsOperation(),
          new TwinSinksOperation(),
          new TransactionPastTimeoutOperation(),
          new DeposedLeaderOperation());

  private final LabSettings settings;
  private final LabProgress progress;
  private final Set<String> selectedCells;
  private final List<Deployment> deployments;
  private final List<OperationJob> jobs;
  private final String jdbcUrl;

  /**
   * @param selectedCells the cells to run, each named {@code operation} or {@code operation/job};
   *     empty for all
   * @param deployments where to run each selected cell, in this order
   * @param jobs the jobs to run each operation with
   * @param jdbcUrl the PostgreSQL server of {@link OperationJob#POSTGRES_TOTALS}, or null
   */
  public OperationsMatrix(
      LabSettings settings,
      LabProgress progress,
      Set<String> selectedCells,
      List<Deployment> deployments,
      List<OperationJob> jobs,
      String jdbcUrl) {
    this.settings = settings;
    this.progress = progress;
    this.selectedCells = Set.copyOf(selectedCells);
    this.deployments = List.copyOf(deployments);
    this.jobs = List.copyOf(jobs);
    this.jdbcUrl = jdbcUrl;
    for (String name : selectedCells) {
      if (allCells().stream().noneMatch(cell -> cell.isNamed(name))) {
        throw new LabUserError(
            "--cells: no cell '"
                + name
                + "'; name OPERATION, OPERATION/JOB or OPERATION/JOB/DEPLOYMENT with the operations "
                + OPERATIONS.stream().map(Operation::key).toList()
                + " and the jobs "
                + jobs.stream().map(OperationJob::key).toList());
      }
    }
  }

  /** Runs the cells on a broker of the matrix's own, started in {@code directory}. */
  public List<OperationCellResult> run(Path directory) {
    progress.line("starting a Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker = KafkaBroker.start(LabBroker.config(directory.resolve("kafka")))) {
      return run(directory, broker.bootstrapServers());
    }
  }

  /**
   * Runs the cells on the running broker at {@code bootstrap}; each cell's topics, group and
   * transactional ids carry the cell's number and a tag of this run, so that matrices run one after
   * another on one broker never share them.
   */
  public List<OperationCellResult> run(Path directory, String bootstrap) {
    List<Cell> cells = cells();
    String runTag = Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    List<OperationCellResult> results = new ArrayList<>();
    for (Cell cell : cells) {
      int index = results.size() + 1;
      progress.line(
          String.format(
              "[%d/%d] %s / %s / %s",
              index,
              cells.size(),
              cell.operation().key(),
              cell.job().key(),
              cell.deployment().key()));
      results.add(run(cell, bootstrap, directory, index, runTag));
    }
    return results;
  }

  private OperationCellResult run(
      Cell cell, String bootstrap, Path directory, int index, String runTag) {
    CellTopics topics = CellTopics.of("in", "out").suffixed("op" + index + "-" + runTag);
    OperationCell context =
        new OperationCell(
            cell.job(),
            cell.deployment(),
            bootstrap,
            topics,
            directory.resolve("op-" + index),
            settings,
            progress,
            jdbcUrl);
    OperationOutcome outcome;
    try {
      outcome = cell.operation().run(context);
    } catch (LabFailure e) {
      outcome = countedAnyway(context, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LabFailure("interrupted in " + cell.operation().key());
    } catch (Exception e) {
      // A broker or file error in one cell: report it there, measure the others.
      outcome = OperationOutcome.notCarriedOut(e.toString());
    }
    OperationCellResult result =
        new OperationCellResult(
            cell.operation().key(),
            cell.job().key(),
            cell.deployment().key(),
            cell.operation().expectation(),
            outcome);
    progress.line(
        "  "
            + outcome.label()
            + (result.passed() ? "" : " (expected " + cell.operation().expectation() + ")")
            + (outcome.failure() == null ? "" : ": " + outcome.failure()));
    return result;
  }

  /**
   * A cell that could not be carried out to its end (a job that stalled or died) is still counted
   * when its topics can be read, so the failure shows what was committed meanwhile.
   */
  private static OperationOutcome countedAnyway(OperationCell cell, String why) {
    try {
      return OperationOutcome.failed(why, cell.verdict());
    } catch (RuntimeException e) {
      return OperationOutcome.notCarriedOut(why); // its topics were never created
    }
  }

  /** The selected cells on each deployment that can carry their operation out. */
  private List<Cell> cells() {
    List<Cell> cells = new ArrayList<>();
    for (Deployment deployment : deployments) {
      for (Cell cell : allCells(deployment)) {
        if (cell.operation().runsOn(deployment)
            && (selectedCells.isEmpty() || selectedCells.stream().anyMatch(cell::isNamed))) {
          cells.add(cell);
        }
      }
    }
    return cells;
  }

  private List<Cell> allCells() {
    List<Cell> cells = new ArrayList<>();
    for (Deployment deployment : Deployment.values()) {
      cells.addAll(allCells(deployment));
    }
    return cells;
  }

  private List<Cell> allCells(Deployment deployment) {
    List<Cell> cells = new ArrayList<>();
    for (Operation operation : OPERATIONS) {
      for (OperationJob job : jobs) {
        if (job.runs(operation)) {
          cells.add(new Cell(operation, job, deployment));
        }
      }
    }
    return cells;
  }

  private record Cell(Operation operation, OperationJob job, Deployment deployment) {
    /** Whether {@code name} (an operation, operation/job or operation/job/deployment) names it. */
    boolean isNamed(String name) {
      String withJob = operation.key() + "/" + job.key();
      return name.equals(operation.key())
          || name.equals(withJob)
          || name.equals(withJob + "/" + deployment.key());
    }
  }
}
