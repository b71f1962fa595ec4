package io.weir.lab.overload;

import java.util.Locale;

/** What the input does in a phase of the overload soak. */
public enum PhaseKind {
  /** Input at three times what the job can process: a backlog builds up. */
  OVERLOAD,
  /** Input below what the job can process: the backlog drains. */
  RECOVERY;

  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
