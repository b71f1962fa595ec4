package io.weir.runtime.failpoint;

import io.weir.api.datastream.JobConfig;

/** Passes a failpoint three times, printing before each pass; run in a child JVM by a test. */
public final class HaltingMain {
  private HaltingMain() {}

  public static void main(String[] args) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
    JobConfig config = new JobConfig();
    // As a runner does: the process's failpoints (-Dweir.failpoints) become the job's.
    FailpointConfiguration.applyProcessConfiguration(config);
    Failpoints failpoints = Failpoints.of(config.failpoints());
    for (int pass = 1; pass <= 3; pass++) {
      System.out.println("pass " + pass);
      System.out.flush();
      failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE);
    }
    System.out.println("finished");
  }
}
