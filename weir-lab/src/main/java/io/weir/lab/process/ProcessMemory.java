package io.weir.lab.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The peak resident set of a process, from {@code /proc/<pid>/status} (Linux): the most memory it
 * held at once since it started, which stays readable until the process is gone.
 */
public final class ProcessMemory {
  private ProcessMemory() {}

  /** VmHWM in MiB, or 0 when the process is gone or the system has no such file. */
  public static double peakResidentMebibytes(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmHWM:")) {
          String kibibytes = line.substring("VmHWM:".length()).replace("kB", "").trim();
          return Long.parseLong(kibibytes) / 1024.0;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // The process ended between two samples; the caller keeps its last sample.
    }
    return 0;
  }
}
