package io.weir.runtime.failpoint;

/** Passes a failpoint three times, printing before each pass; run in a child JVM by a test. */
public final class HaltingMain {
  private HaltingMain() {}

  public static void main(String[] args) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
    for (int pass = 1; pass <= 3; pass++) {
      System.out.println("pass " + pass);
      System.out.flush();
      Failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE);
    }
    System.out.println("finished");
  }
}
