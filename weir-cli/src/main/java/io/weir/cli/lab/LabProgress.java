package io.weir.cli.lab;

import java.io.PrintStream;

/** Progress lines of the lab on standard output, {@code lab: ...}. */
final class LabProgress {
  private final PrintStream out;
  private final String prefix;

  LabProgress(PrintStream out, String prefix) {
    this.out = out;
    this.prefix = prefix;
  }

  void line(String text) {
    out.println(prefix + ": " + text);
    out.flush();
  }
}
