package io.weir.lab.nemesis;

import io.weir.lab.CellTopics;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.JobOutput;
import io.weir.lab.LabProgress;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.TableOutput;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The nemesis lab, end to end: starts the topology (three brokers and the job, a local job or an HA
 * cluster, and PostgreSQL when the job writes there, each process on a host of its own), feeds the
 * input steadily (each of the window join's two inputs at the rate), injects faults for the given
 * time, then stops the input, waits until the job's output settled, keeps watching a while longer
 * for a late duplicate, and checks the output. Everything it started is ended and removed before it
 * returns, also when it fails.
 */
public final class NemesisLab {
  /**
   * The longest the committed output of a local job may stay still after a fault healed (for the HA
   * cluster's see {@link NemesisDeployment#stallBound}). Far below the sink's transaction timeout,
   * which bounds it in principle: a restarted job or a moved coordinator should commit again within
   * seconds; the bound leaves room for a busy machine.
   */
  public static final Duration STALL_BOUND = Duration.ofSeconds(60);

  /**
   * How long the output is watched after it settled: a duplicate from a late commit of an old
   * transaction would show within a few checkpoints.
   */
  private static final Duration LATE_DUPLICATE_WATCH = Duration.ofSeconds(15);

  private static final Duration FIRST_OUTPUT_LOOK = Duration.ofMillis(500);

  private final NetworkSlot slot;
  private final NemesisJob job;
  private final NemesisSink sink;
  private final NemesisDeployment deployment;
  private final long ratePerSecond;
  private final Duration timeout;
  private final List<FaultKind> kinds;
  private final Random random;
  private final NemesisLog log;
  private final Clock clock;

  /**
   * @param slot the network the lab's hosts live in
   * @param job the job run under the faults and checked
   * @param sink where the job writes: the output topic or PostgreSQL
   * @param deployment where the job runs: one local job process or an HA cluster
   * @param ratePerSecond input records per second
   * @param timeout how long each wait (the cluster's start, the output's settling) may take
   */
  public NemesisLab(
      NetworkSlot slot,
      NemesisJob job,
      NemesisSink sink,
      NemesisDeployment deployment,
      long ratePerSecond,
      Duration timeout,
      List<FaultKind> kinds,
      long randomSeed,
      LabProgress progress,
      Clock clock) {
    sink.checkRuns(job, deployment);
    this.slot = slot;
    this.job = job;
    this.sink = sink;
    this.deployment = deployment;
    this.ratePerSecond = ratePerSecond;
    this.timeout = timeout;
    this.kinds = List.copyOf(kinds);
    this.random = new Random(randomSeed);
    this.log = new NemesisLog(progress, clock);
    this.clock = clock;
  }

  /**
   * Removes the namespaces, the bridge and the checkpoint volumes a lab of {@code slot} that did
   * not end cleanly left behind; returns what it removed.
   */
  public static List<String> removeLeftovers(NetworkSlot slot) throws IOException {
    List<String> removed = new ArrayList<>(CheckpointVolume.removeLeftovers(slot));
    removed.addAll(NemesisNetwork.removeLeftovers(slot));
    return removed;
  }

  /** Runs the lab in {@code directory} for {@code duration} of faults; returns its report. */
  public NemesisReport run(Path directory, CellTopics topics, Duration duration) throws Exception {
    try (NemesisTopology topology =
            NemesisTopology.start(slot, job, sink, deployment, directory, topics, timeout, log);
        OutputWatch watch = watch(topology, topics)) {
      String bootstrap = topology.bootstrapServers();
      List<Fault> faults;
      long records;
      Instant start;
      List<ContinuousFeed> feeds = new ArrayList<>();
      try (ClusterLookup lookup = new ClusterLookup(bootstrap);
          AutoCloseable stopFeeds = () -> closeAll(feeds)) {
        for (String input : job.inputTopics(topics)) {
          feeds.add(ContinuousFeed.start(bootstrap, input, ratePerSecond, 0));
        }
        awaitFirstOutput(watch, topology.job());
        start = clock.instant();
        log.event("committed output flows; faults for " + duration.toSeconds() + " s");
        faults =
            new Nemesis(new FaultInjector(topology, lookup, random), kinds, random, log)
                .run(duration);
        records = 0;
        for (ContinuousFeed feed : feeds) {
          records += feed.stop();
        }
      }
      log.event("input stopped at " + records + " records; waiting for the output to settle");
      JobDeployment running = topology.job();
      Optional<TableOutput> table = topology.postgres().map(postgres -> table(postgres, topics));
      JobOutput output =
          table.isPresent() ? table.get() : new OutputVerifier(bootstrap, topics.output());
      OutputSettling.await(running::runs, running.log(), output, bootstrap, topics, timeout);
      log.event("output settled; watching " + LATE_DUPLICATE_WATCH.toSeconds() + " s more");
      Thread.sleep(LATE_DUPLICATE_WATCH.toMillis());
      Instant end = clock.instant();
      watch.close();
      NemesisChecker.Findings findings =
          new NemesisChecker(bootstrap, topics, job, table)
              .check(faults, watch.arrivals(), watch.offsets(), end);
      return new NemesisReport(
          job,
          sink,
          faults,
          findings,
          job.stallBound(deployment.stallBound(), ratePerSecond),
          running.unexpectedExits(),
          watch.arrivals(),
          start,
          end);
    }
  }

  private static void closeAll(List<ContinuousFeed> feeds) throws InterruptedException {
    for (ContinuousFeed feed : feeds) {
      feed.close();
    }
  }

  /** The reader of the committed output: the output topic's, or PostgreSQL's updates table's. */
  private OutputWatch watch(NemesisTopology topology, CellTopics topics) {
    return topology
        .postgres()
        .<OutputWatch>map(
            postgres ->
                CommittedRowsWatch.start(
                    postgres.jdbcUrl(), table(postgres, topics).tables().updates(), clock))
        .orElseGet(
            () -> CommittedOutputWatch.start(topology.bootstrapServers(), topics.output(), clock));
  }

  private static TableOutput table(PostgresHost postgres, CellTopics topics) {
    return new TableOutput(postgres.jdbcUrl(), LabJob.tables(topics));
  }

  private void awaitFirstOutput(OutputWatch watch, JobDeployment job) throws InterruptedException {
    Instant deadline = clock.instant().plus(timeout);
    // Polled: the first commit comes with the job's first checkpoint, which nothing announces.
    while (watch.committed() == 0) {
      if (clock.instant().isAfter(deadline)) {
        throw new LabUserError(
            "the job committed no output within " + timeout.toSeconds() + " s; see " + job.log());
      }
      Thread.sleep(FIRST_OUTPUT_LOOK.toMillis());
    }
  }
}
