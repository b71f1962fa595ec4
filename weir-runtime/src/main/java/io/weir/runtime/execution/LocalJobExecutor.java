package io.weir.runtime.execution;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobExecutor;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamPlan;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.startup.StartupPhases;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;

/** Runs a job in this JVM: the job manager and task manager roles in one process. */
public final class LocalJobExecutor implements JobExecutor {
  private final LocalJobs jobs;

  public LocalJobExecutor() {
    this(new LocalJobs());
  }

  /** Runs jobs that {@code jobs} shows to observers (the dashboard of a local run). */
  public LocalJobExecutor(LocalJobs jobs) {
    this.jobs = jobs;
  }

  @Override
  public JobResult execute(StreamPlan plan) throws JobExecutionException {
    StartupPhases.reached("job's plan built by its main");
    JobGraph graph = JobGraphBuilder.build(plan);
    StartupPhases.reached("job graph built");
    return jobs.add(graph, Clock.systemUTC()).run();
  }

  @Override
  public JobClient executeAsync(StreamPlan plan) throws JobExecutionException {
    LocalJob run = jobs.add(JobGraphBuilder.build(plan), Clock.systemUTC());
    CompletableFuture<JobResult> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                result.complete(run.run());
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            },
            "weir job " + plan.jobName());
    thread.setDaemon(true);
    thread.start();
    return new LocalJobClient(plan.jobName(), run.driver(), result);
  }
}
