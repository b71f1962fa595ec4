package io.weir.lab.crash;

import java.nio.file.Path;
import java.util.List;

/** How the crashed job is started again: the columns of the seed's tables. */
public enum Recovery {
  /** {@code weir run -s <latest checkpoint>}: the seed's restart with a checkpoint path. */
  CHECKPOINT("restore from checkpoint", "checkpoint"),
  /** {@code weir run --from-group-offsets}: no state, sources read the group's offsets. */
  GROUP_OFFSETS("restore from __consumer_offsets", "group-offsets");

  private final String label;
  private final String key;

  Recovery(String label, String key) {
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

  /** The {@code weir run} options that choose this recovery. */
  List<String> runOptions(Path latestCheckpoint) {
    return this == CHECKPOINT
        ? List.of("-s", latestCheckpoint.toString())
        : List.of("--from-group-offsets");
  }
}
