package io.weir.lab.bench;

/** The stream processors the Nexmark bench compares, each run in a fresh JVM of its own. */
public enum NexmarkEngine {
  WEIR("weir"),
  FLINK("flink");

  /**
   * The exit code of the Flink process for a query that has no Flink version (the bench module's
   * {@code FlinkNexmarkJob.NOT_WRITTEN_FOR_FLINK}; that module is not on this class path).
   */
  static final int NOT_WRITTEN_FOR_FLINK = 3;

  private final String key;

  NexmarkEngine(String key) {
    this.key = key;
  }

  /** The engine's name in the JSON report, in topics, groups and logs. */
  public String key() {
    return key;
  }
}
