package io.weir.cli;

import io.weir.api.datastream.JobExecutor;
import io.weir.cli.error.UserError;
import io.weir.lab.process.JobLauncher;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code weir plan}: the tasks a job would run, without running it. */
@Command(
    name = "plan",
    description = "Print a job's tasks: parallelism and chained operators, one task per line.")
public final class PlanCommand implements Runnable {
  @Parameters(index = "0", paramLabel = "JOB", description = "The job's main class or jar.")
  String job;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "The job's own arguments.")
  List<String> args = new ArrayList<>();

  @Override
  public void run() {
    List<JobGraph> graphs = new ArrayList<>();
    JobExecutor capture =
        plan -> {
          graphs.add(JobGraphBuilder.build(plan));
          throw new PlanCaptured();
        };
    try {
      JobLauncher.launch(job, args.toArray(String[]::new), capture, null);
    } catch (PlanCaptured expected) {
      // the job stopped at execute(), as intended
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new UserError("The job failed before it reached execute(): " + e.getMessage(), e);
    }
    if (graphs.isEmpty()) {
      throw new UserError("The job " + job + " never called execute()");
    }
    System.out.print(graphs.get(0).describe());
  }

  /** Stops a job's main at execute() once its plan is known. */
  private static final class PlanCaptured extends RuntimeException {
    PlanCaptured() {
      super("plan captured", null, false, false);
    }
  }
}
