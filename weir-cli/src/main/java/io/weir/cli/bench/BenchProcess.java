package io.weir.cli.bench;

import io.weir.cli.lab.JobProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A measured pipeline's process: its peak resident memory is sampled while it runs (the kernel's
 * high-water mark disappears with the process), and it can be killed like {@code kill -9}.
 */
final class BenchProcess implements AutoCloseable {
  private final long pid;
  private final Process process;
  private final JobProcess job;
  private final Thread sampler;
  private volatile double peakResidentMebibytes;

  private BenchProcess(long pid, Process process, JobProcess job) {
    this.pid = pid;
    this.process = process;
    this.job = job;
    this.sampler = new Thread(this::sample, "bench memory sampler " + pid);
    sampler.setDaemon(true);
    sampler.start();
  }

  static BenchProcess of(JobProcess job) {
    return new BenchProcess(job.pid(), null, job);
  }

  /** Starts {@code java <arguments>} with this JVM's class path and the job processes' heap. */
  static BenchProcess java(List<String> arguments, Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.addAll(arguments);
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new BenchProcess(process.pid(), process, null);
  }

  private void sample() {
    while (isAlive()) {
      peakResidentMebibytes =
          Math.max(peakResidentMebibytes, ProcessMemory.peakResidentMebibytes(pid));
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  boolean isAlive() {
    return process != null ? process.isAlive() : job.isAlive();
  }

  /** Waits for the process to end; false after the timeout. */
  boolean waitFor(long millis) throws InterruptedException {
    return process != null
        ? process.waitFor(millis, TimeUnit.MILLISECONDS)
        : job.waitFor(millis) != -1;
  }

  double peakResidentMebibytes() {
    return peakResidentMebibytes;
  }

  /** SIGKILL, as {@code kill -9}; returns when the process is gone. */
  void kill() throws InterruptedException {
    peakResidentMebibytes =
        Math.max(peakResidentMebibytes, ProcessMemory.peakResidentMebibytes(pid));
    if (process != null) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    } else {
      job.kill();
    }
    sampler.interrupt();
  }

  @Override
  public void close() throws InterruptedException {
    if (isAlive()) {
      kill();
    }
  }
}
