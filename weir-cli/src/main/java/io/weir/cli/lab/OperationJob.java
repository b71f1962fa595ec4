package io.weir.cli.lab;

/**
 * The jobs the operations matrix runs each operation with, and how each one's committed output is
 * judged: the seed job by input id (every input id exactly once), the running count by keyed state
 * (each word's committed counts exactly 1..n for its n input records, so a lost or replayed state
 * shows even when every id came out).
 */
enum OperationJob {
  SEED("seed", "io.weir.examples.SeedJob"),
  RUNNING_COUNT("running-count", "io.weir.examples.RunningCountJob");

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
   * Counts the committed ({@code read_committed}) output of {@code topics} against their input.
   * Input records that are not seed records (a poison record) are not expected in the output.
   */
  OutputVerifier.Verdict verify(String bootstrap, CellTopics topics) {
    return switch (this) {
      case SEED ->
          new OutputVerifier(bootstrap, topics.output())
              .read(true)
              .verifyAgainst(SeedRecordsRead.ids(bootstrap, topics.input()));
      case RUNNING_COUNT -> RunningCountVerdict.verify(bootstrap, topics);
    };
  }
}
