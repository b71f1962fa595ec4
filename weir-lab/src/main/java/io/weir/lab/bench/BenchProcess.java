package io.weir.lab.bench;

import io.weir.lab.process.ChildJvmOptions;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.ProcessMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A measured pipeline's process: its peak resident memory and its CPU time are sampled while it
 * runs (both disappear with the process), it knows when it was launched, and it can be killed like
 * {@code kill -9}.
 */
final class BenchProcess implements AutoCloseable {
  // The heap and collector of Weir's job processes (JobProcess), so that every process compares.
  private static final List<String> HEAP = List.of("-Xmx512m", "-XX:+UseSerialGC");

  private final long pid;
  private final Process process;
  private final JobProcess job;
  private final Thread sampler;
  private final long launchedNanos;
  private final Path log;
  private volatile double peakResidentMebibytes;
  private volatile double cpuSeconds;

  private BenchProcess(long pid, Process process, JobProcess job, long launchedNanos, Path log) {
    this.pid = pid;
    this.process = process;
    this.job = job;
    this.launchedNanos = launchedNanos;
    this.log = log;
    this.sampler = new Thread(this::sample, "bench memory sampler " + pid);
    sampler.setDaemon(true);
    sampler.start();
  }

  /** A job process that was launched at {@code launchedNanos} ({@link System#nanoTime()}). */
  static BenchProcess of(JobProcess job, long launchedNanos) {
    return new BenchProcess(job.pid(), null, job, launchedNanos, job.log());
  }

  /**
   * Starts {@code java <jvmOptions> <arguments>} with this JVM's class path and the job processes'
   * heap.
   */
  static BenchProcess java(List<String> jvmOptions, List<String> arguments, Path log)
      throws IOException {
    List<String> options = new ArrayList<>(HEAP);
    // The loop runs as its author would run it: not in a compilers' mode the bench was given
    // (WEIR_JAVA_OPTS), which Weir's job processes take over; --jvm-option reaches both.
    options.addAll(ChildJvmOptions.classDataSharing(jvmOptions));
    options.addAll(jvmOptions);
    ProcessBuilder builder = ChildJvmOptions.processBuilder(options, arguments, log);
    long launchedNanos = System.nanoTime();
    Process process = builder.start();
    return new BenchProcess(process.pid(), process, null, launchedNanos, log);
  }

  /**
   * Starts {@code java <jvmOptions> -cp <classPath> <arguments>} with the job processes' heap: a
   * program that is not Weir's (no class-data sharing archive of Weir's to map).
   */
  static BenchProcess java(
      String classPath, List<String> jvmOptions, List<String> arguments, Path log)
      throws IOException {
    List<String> options = new ArrayList<>(HEAP);
    options.addAll(jvmOptions);
    ProcessBuilder builder = ChildJvmOptions.processBuilder(classPath, options, arguments, log);
    long launchedNanos = System.nanoTime();
    Process process = builder.start();
    return new BenchProcess(process.pid(), process, null, launchedNanos, log);
  }

  /** The exit code of the process, once it ended. */
  int exitCode() throws InterruptedException {
    return process != null ? process.exitValue() : job.waitFor(0);
  }

  private void sample() {
    while (isAlive()) {
      sampleNow();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sampleNow() {
    peakResidentMebibytes =
        Math.max(peakResidentMebibytes, ProcessMemory.peakResidentMebibytes(pid));
    // Sampled every 100 ms until the process exits: the last interval's CPU is not counted.
    cpuSeconds = Math.max(cpuSeconds, ProcessCpu.seconds(pid));
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

  /** User plus system CPU seconds of the process, as last sampled. */
  double cpuSeconds() {
    return cpuSeconds;
  }

  /** Where the process's output goes. */
  Path log() {
    return log;
  }

  /** {@link System#nanoTime()} just before the process was launched. */
  long launchedNanos() {
    return launchedNanos;
  }

  /** SIGKILL, as {@code kill -9}; returns when the process is gone. */
  void kill() throws InterruptedException {
    sampleNow();
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
