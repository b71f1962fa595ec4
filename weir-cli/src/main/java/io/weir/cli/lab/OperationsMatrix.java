package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.kafka.broker.KafkaBroker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The operations matrix: every operation, for the seed job and for the running count, each cell
 * with its own topics, group, transactional ids and checkpoints on one broker. A cell that cannot
 * be carried out is reported as failed; the others still run.
 */
final class OperationsMatrix {
  /** Every operation, in the order the matrix runs them. */
  static final List<Operation> OPERATIONS =
      List.of(
          new RescaleOperation(1, 1),
          new RescaleOperation(1, 2),
          new RescaleOperation(2, 4),
          new RescaleOperation(4, 1),
          new StopWithSavepointOperation(),
          new CancelWithSavepointOperation(),
          new RetentionOperation(false),
          new RetentionOperation(true),
          new LatestStartOperation(),
          new PoisonRecordOperation(false),
          new PoisonRecordOperation(true));

  private final LabSettings settings;
  private final LabProgress progress;
  private final Set<String> selectedCells;

  /**
   * @param selectedCells the cells to run, each named {@code operation} or {@code operation/job};
   *     empty for all
   */
  OperationsMatrix(LabSettings settings, LabProgress progress, Set<String> selectedCells) {
    this.settings = settings;
    this.progress = progress;
    this.selectedCells = Set.copyOf(selectedCells);
    for (String name : selectedCells) {
      if (allCells().stream().noneMatch(cell -> cell.isNamed(name))) {
        throw new UserError(
            "--cells: no cell '"
                + name
                + "'; name OPERATION or OPERATION/JOB with the operations "
                + OPERATIONS.stream().map(Operation::key).toList()
                + " and the jobs "
                + Arrays.stream(OperationJob.values()).map(OperationJob::key).toList());
      }
    }
  }

  List<OperationCellResult> run(Path directory) {
    List<Cell> cells = cells();
    List<OperationCellResult> results = new ArrayList<>();
    progress.line("starting a Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker = KafkaBroker.start(LabBroker.config(directory.resolve("kafka")))) {
      for (Cell cell : cells) {
        int index = results.size() + 1;
        progress.line(
            String.format(
                "[%d/%d] %s / %s", index, cells.size(), cell.operation().key(), cell.job().key()));
        results.add(run(cell, broker.bootstrapServers(), directory, index));
      }
    }
    return results;
  }

  private OperationCellResult run(Cell cell, String bootstrap, Path directory, int index) {
    CellTopics topics = CellTopics.of("in", "out").suffixed("op" + index);
    OperationCell context =
        new OperationCell(
            cell.job(), bootstrap, topics, directory.resolve("op-" + index), settings, progress);
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
            cell.operation().key(), cell.job().key(), cell.operation().expectation(), outcome);
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

  private List<Cell> cells() {
    return allCells().stream()
        .filter(cell -> selectedCells.isEmpty() || selectedCells.stream().anyMatch(cell::isNamed))
        .toList();
  }

  private static List<Cell> allCells() {
    List<Cell> cells = new ArrayList<>();
    for (Operation operation : OPERATIONS) {
      for (OperationJob job : OperationJob.values()) {
        cells.add(new Cell(operation, job));
      }
    }
    return cells;
  }

  private record Cell(Operation operation, OperationJob job) {
    /** Whether {@code name} (an operation, or operation/job) names this cell. */
    boolean isNamed(String name) {
      return name.equals(operation.key()) || name.equals(operation.key() + "/" + job.key());
    }
  }
}
