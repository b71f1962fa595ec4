package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.devservers.process.DevServerException;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.operations.Deployment;
import io.weir.lab.operations.OperationCellResult;
import io.weir.lab.operations.OperationJob;
import io.weir.lab.operations.OperationsJson;
import io.weir.lab.operations.OperationsMatrix;
import io.weir.lab.operations.OperationsTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** The options of {@code weir lab --operations}, and the operations matrix they run. */
final class OperationsOptions {
  @Option(
      names = "--operations",
      description =
          "Run the operations matrix instead: rescale, savepoint stop and cancel, retention while"
              + " down, start at latest, poison records; with --sink postgres: rescale and savepoint"
              + " stop of the running totals into PostgreSQL; with --soak: random rescales and"
              + " savepoint stops among the kills.")
  boolean operations;

  @Option(
      names = "--cells",
      split = ",",
      paramLabel = "OPERATION[/JOB[/DEPLOYMENT]]",
      description = "With --operations: run only these cells, e.g. rescale-1-2/seed/cluster.")
  Set<String> cells = new LinkedHashSet<>();

  @Option(
      names = "--deployments",
      split = ",",
      paramLabel = "local|cluster",
      description =
          "With --operations: run each cell on these, in this order: local (weir run, a process of"
              + " its own), cluster (a job manager and a task manager of the cell's own; savepoint"
              + " cells run only there) (default: ${DEFAULT-VALUE}).")
  List<String> deployments = new ArrayList<>(List.of("local", "cluster"));

  @Option(
      names = "--bootstrap",
      paramLabel = "HOST:PORT",
      description =
          "With --operations: run the cells on this running broker instead of starting one.")
  String bootstrap;

  /**
   * Runs the operations matrix of the seed job and the running count into Kafka, or of the running
   * totals into a PostgreSQL server of its own, and prints its table; returns the exit code (1 when
   * a cell failed).
   */
  int run(LabOptions lab, LabSettings settings) throws Exception {
    if (lab.jobClass != null) {
      throw new UserError("--operations runs the seed job and the running count; drop --job");
    }
    lab.recreateDirectory();
    LabProgress progress = new LabProgress(System.out, "lab");
    if (lab.sink == LabSink.KAFKA) {
      progress.line("operations matrix in " + lab.directory);
      return run(lab, settings, progress, OperationJob.KAFKA_JOBS, null);
    }
    Path serverDirectory = lab.directory.resolve("postgres");
    progress.line("starting a PostgreSQL server in " + serverDirectory);
    try (PostgresServer server =
        PostgresServer.start(PostgresServerConfig.inDirectory(serverDirectory).withPort(0))) {
      progress.line("operations matrix of the running totals into PostgreSQL in " + lab.directory);
      return run(lab, settings, progress, List.of(OperationJob.POSTGRES_TOTALS), server.jdbcUrl());
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  private int run(
      LabOptions lab,
      LabSettings settings,
      LabProgress progress,
      List<OperationJob> jobs,
      String jdbcUrl)
      throws IOException {
    OperationsMatrix matrix =
        new OperationsMatrix(settings, progress, cells, chosenDeployments(), jobs, jdbcUrl);
    List<OperationCellResult> results =
        bootstrap == null ? matrix.run(lab.directory) : matrix.run(lab.directory, bootstrap);
    OperationsTable.print(results, System.out);
    if (lab.json != null) {
      OperationsJson.write(lab.json, results);
    }
    return results.stream().allMatch(OperationCellResult::passed) ? 0 : 1;
  }

  private List<Deployment> chosenDeployments() {
    List<Deployment> chosen = new ArrayList<>();
    for (String key : new LinkedHashSet<>(deployments)) {
      try {
        chosen.add(Deployment.ofKey(key));
      } catch (IllegalArgumentException e) {
        throw new UserError("--deployments takes local and cluster, got '" + key + "'");
      }
    }
    return chosen;
  }
}
