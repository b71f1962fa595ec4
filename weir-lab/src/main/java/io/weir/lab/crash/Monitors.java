package io.weir.lab.crash;

import io.weir.lab.CellTopics;
import io.weir.lab.JobOutput;
import io.weir.lab.Topics;

/**
 * The seed's three monitors right after the crash: records in the output topic as a {@code
 * read_uncommitted} reader sees them (1) and as a {@code read_committed} reader does (2), and the
 * offsets the consumer group committed, summed over partitions (3).
 */
public record Monitors(long readUncommitted, long readCommitted, long groupOffsets) {

  static Monitors read(JobOutput output, String bootstrap, CellTopics topics) throws Exception {
    return new Monitors(
        output.read(false).records(),
        output.read(true).records(),
        Topics.committedOffsets(bootstrap, topics.group()));
  }

  public String line() {
    return "bar read_uncommitted="
        + readUncommitted
        + " read_committed="
        + readCommitted
        + " group offsets="
        + groupOffsets;
  }
}
