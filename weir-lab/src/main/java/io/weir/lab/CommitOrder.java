package io.weir.lab;

/**
 * Which of the two commits of a completed checkpoint happens first: the sink's transaction commit
 * or the source's offset commit to its consumer group. The rows of the seed's tables.
 */
public enum CommitOrder {
  /** One task (the chain notifies its tail first): the sink commits, then the source. */
  SINK_FIRST("sink first (one task)", "sink-first"),
  /** Two tasks: the source task's offset commit wins the race against the sink task's commit. */
  SOURCE_FIRST("source first (two tasks)", "source-first");

  private final String label;
  private final String key;

  CommitOrder(String label, String key) {
    this.label = label;
    this.key = key;
  }

  public String label() {
    return label;
  }

  /** The name in the lab's JSON output. */
  public String key() {
    return key;
  }
}
