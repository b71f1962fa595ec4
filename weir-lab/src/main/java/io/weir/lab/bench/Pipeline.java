package io.weir.lab.bench;

import io.weir.lab.process.JobProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The pipelines the Kafka benchmark compares, each started as its own process. */
public enum Pipeline {
  RAW("raw", null, false),
  WEIR_EXACTLY_ONCE("weir_exactly_once", "exactly-once", false),
  WEIR_AT_LEAST_ONCE("weir_at_least_once", "at-least-once", false),
  WEIR_CHAINED("weir_chained", "exactly-once", true),
  /**
   * Weir exactly-once submitted by {@code weir run --jobmanager} to a session cluster that already
   * runs (and ran a job before): the client's process is launched, the job runs in the cluster's.
   */
  WEIR_SESSION("weir_session", "exactly-once", false);

  private final String key;
  private final String semantic;
  private final boolean chained;

  Pipeline(String key, String semantic, boolean chained) {
    this.key = key;
    this.semantic = semantic;
    this.chained = chained;
  }

  /** The run's name in the JSON report and in topic, group and transactional id names. */
  public String key() {
    return key;
  }

  /** Where one run reads and writes, and what it is called in Kafka and on disk. */
  record Wiring(
      String bootstrap,
      String input,
      String output,
      String group,
      int parallelism,
      boolean bounded,
      Path directory,
      boolean dashboard,
      JobJvmOptions jvmOptions,
      String jobManager) {}

  BenchProcess start(Wiring wiring, String label) throws IOException {
    Path log = wiring.directory().resolve(key + "-" + label + ".log");
    List<String> jvmOptions = wiring.jvmOptions().forRun(wiring.group() + "-" + label);
    if (this == RAW) {
      return BenchProcess.java(
          jvmOptions,
          List.of(
              RawPipeline.class.getName(),
              wiring.bootstrap(),
              wiring.input(),
              wiring.output(),
              wiring.group(),
              Boolean.toString(wiring.bounded())),
          log);
    }
    long launchedNanos = System.nanoTime();
    return BenchProcess.of(JobProcess.start(runArgs(wiring), jvmOptions, null, log), launchedNanos);
  }

  /** Whether a run of its own can measure its latency: the paced run is killed, not finished. */
  public boolean measuresLatency() {
    // Killing a session cluster's client leaves its unbounded job running in the cluster.
    return this != WEIR_SESSION;
  }

  private List<String> runArgs(Wiring wiring) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-p",
                Integer.toString(wiring.parallelism()),
                "--checkpoint-dir",
                wiring.directory().resolve("checkpoints-" + wiring.group()).toString(),
                "io.weir.examples.SeedJob",
                "--bootstrap",
                wiring.bootstrap(),
                "--input-topic",
                wiring.input(),
                "--output-topic",
                wiring.output(),
                "--group",
                wiring.group(),
                "--transactional-id-prefix",
                wiring.group(),
                "--semantic",
                semantic,
                "--checkpoint-interval",
                "1000"));
    // Options of `weir run` go before the job class; a free port each, as runs may overlap. The
    // run's log shows its start-up phases.
    args.addAll(0, wiring.dashboard() ? List.of("--web-port", "0") : List.of("--no-web"));
    args.add(0, "--verbose");
    if (this == WEIR_SESSION) {
      if (wiring.jobManager() == null) {
        throw new IllegalStateException("The session pipeline needs a running cluster");
      }
      args.addAll(0, List.of("--jobmanager", wiring.jobManager()));
    }
    if (wiring.bounded()) {
      args.add("--bounded");
    }
    if (chained) {
      args.add("--chained");
    }
    return args;
  }
}
