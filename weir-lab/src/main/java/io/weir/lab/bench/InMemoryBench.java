package io.weir.lab.bench;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.examples.SeedJob;
import io.weir.examples.SeedJobOptions;
import java.time.Duration;

/**
 * The seed job on its generator (source -> keyBy -> map -> discarding sink, parallelism 2) in this
 * JVM, once with checkpoints off and once with a checkpoint every second, after a short warm-up so
 * that both measured runs see compiled code.
 */
public final class InMemoryBench {
  public static final int PARALLELISM = 2;
  private static final int ROUNDS = 2;

  /** Throughput without and with checkpoints, and what a checkpoint took on average. */
  public record Result(
      long records,
      double recordsPerSecond,
      double checkpointedRecordsPerSecond,
      double meanCheckpointMillis,
      long checkpoints) {}

  private InMemoryBench() {}

  /**
   * Runs each configuration {@link #ROUNDS} times, alternating, and keeps the best of each: the
   * first runs of a JVM are slower while code is compiled, and alternating spreads that (and other
   * load on the machine) over both configurations instead of charging it to one.
   */
  public static Result run(long records) throws Exception {
    runSeedJob(Math.max(1, records / 10), null);
    Measured plain = null;
    Measured checkpointed = null;
    for (int round = 0; round < ROUNDS; round++) {
      plain = faster(plain, runSeedJob(records, null));
      checkpointed = faster(checkpointed, runSeedJob(records, Duration.ofSeconds(1)));
    }
    return new Result(
        records,
        plain.recordsPerSecond(records),
        checkpointed.recordsPerSecond(records),
        checkpointed.result.meanCheckpointDuration().toNanos() / 1e6,
        checkpointed.result.completedCheckpoints());
  }

  private record Measured(JobResult result, long nanos) {
    double recordsPerSecond(long records) {
      return records * 1e9 / nanos;
    }
  }

  private static Measured faster(Measured best, Measured candidate) {
    return best == null || candidate.nanos < best.nanos ? candidate : best;
  }

  /** Runs the seed job; a null interval turns periodic checkpoints off. */
  private static Measured runSeedJob(long records, Duration checkpointInterval) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    SeedJob.build(env, SeedJobOptions.parse("--records", Long.toString(records)));
    env.setParallelism(PARALLELISM);
    env.config().checkpointInterval(checkpointInterval);
    long started = System.nanoTime();
    JobResult result = env.execute("seed-bench");
    return new Measured(result, System.nanoTime() - started);
  }
}
