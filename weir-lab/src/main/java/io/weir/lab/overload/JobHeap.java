package io.weir.lab.overload;

import java.util.List;

/**
 * The heap of the overload soak's job process: the limit the soak claims the job keeps within,
 * whatever its backlog, and the options that hold the process to it.
 */
final class JobHeap {
  static final int LIMIT_MEBIBYTES = 512;

  private JobHeap() {}

  /**
   * The job JVM's options for a heap of {@code limitMebibytes}. An OutOfMemoryError ends the
   * process wherever it is thrown: a thread that caught it and went on (a client's I/O thread), or
   * a failover that restarted the job, would otherwise hide that the heap did not hold. The JVM
   * names the error in the process's output as it exits.
   */
  static List<String> jvmOptions(int limitMebibytes) {
    return List.of("-Xmx" + limitMebibytes + "m", "-XX:+ExitOnOutOfMemoryError");
  }
}
