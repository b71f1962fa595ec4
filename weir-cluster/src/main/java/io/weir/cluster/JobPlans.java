package io.weir.cluster;

import io.weir.api.datastream.JobExecutor;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.datastream.StreamPlan;
import io.weir.cluster.rpc.JobSubmission;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Rebuilds a submitted job's plan by running its {@code main} up to {@code execute}, with the
 * submission's settings applied. Every process of the cluster does this, so they all get the same
 * graph with the same deterministic operator ids, and user functions never travel over the network.
 */
public final class JobPlans {
  private JobPlans() {}

  /**
   * Runs the job class's main until it calls {@code execute} or {@code executeAsync}, with the
   * job's class loader as the context class loader.
   *
   * @throws IllegalArgumentException naming the class when it cannot be run or never executes
   */
  public static StreamPlan capture(JobSubmission submission, JobCode code) {
    Method main = mainOf(code.loadJobClass(submission.jobClass()));
    AtomicReference<StreamPlan> captured = new AtomicReference<>();
    JobExecutor capture =
        plan -> {
          captured.set(plan);
          throw new PlanCaptured();
        };
    // The context is this thread's: captures of other submissions may run meanwhile.
    StreamEnvironment.setContext(new StreamEnvironment.Context(capture, submission::applyTo));
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(code.loader());
    try {
      main.invoke(null, (Object) submission.args().toArray(String[]::new));
    } catch (InvocationTargetException e) {
      if (!(e.getCause() instanceof PlanCaptured) && captured.get() == null) {
        throw new IllegalArgumentException(
            "The job "
                + submission.jobClass()
                + " failed before it reached execute(): "
                + e.getCause(),
            e.getCause());
      }
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException("Cannot run the main method of " + submission.jobClass());
    } finally {
      thread.setContextClassLoader(previous);
      StreamEnvironment.clearContext();
    }
    if (captured.get() == null) {
      throw new IllegalArgumentException(
          "The job " + submission.jobClass() + " never called execute()");
    }
    return captured.get();
  }

  private static Method mainOf(Class<?> jobClass) {
    String className = jobClass.getName();
    try {
      Method main = jobClass.getMethod("main", String[].class);
      if (!Modifier.isStatic(main.getModifiers())) {
        throw new IllegalArgumentException("The main method of " + className + " is not static");
      }
      return main;
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          "The job class " + className + " has no main(String[]) method");
    }
  }

  /** Stops a job's main at execute() once its plan is known. */
  private static final class PlanCaptured extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PlanCaptured() {
      super("plan captured", null, false, false);
    }
  }
}
