package io.weir.lab;

import java.io.PrintStream;

/** Progress lines of the lab on standard output, {@code lab: ...}. */
public final class LabProgress {
  private final PrintStream out;
  private final String prefix;

  public LabProgress(PrintStream out, String prefix) {
    this.out = out;
    this.prefix = prefix;
  }

  public void line(String text) {
    out.println(prefix + ": " + text);
    out.flush();
  }
}
