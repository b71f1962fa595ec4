package io.weir.lab.bench;

import java.time.Duration;

/**
 * The CPU time of a live process: user plus system time of all its threads, which the JDK reads
 * from {@code /proc/<pid>/stat} (utime + stime) on Linux.
 */
final class ProcessCpu {
  private ProcessCpu() {}

  /** Seconds of CPU used so far, or 0 when the process is gone or the system does not tell. */
  static double seconds(long pid) {
    return ProcessHandle.of(pid)
            .flatMap(handle -> handle.info().totalCpuDuration())
            .map(Duration::toNanos)
            .orElse(0L)
        / 1e9;
  }
}
