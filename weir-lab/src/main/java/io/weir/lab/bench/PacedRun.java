package io.weir.lab.bench;

import io.weir.lab.LabFailure;
import io.weir.lab.LabUserError;
import io.weir.lab.Polling;
import io.weir.nexmark.generator.EventGenerator;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One paced run of the Nexmark bench: with the engine's job reading the empty events topic, writes
 * the events at a steady rate and measures each one's end-to-end latency, from its send time to
 * when the job's group offsets were seen committed past it ({@link CommittedOffsetWatcher}).
 *
 * <p>The first event of each partition is written alone and waited for: it tells that the job is
 * reading and checkpointing. Its latency includes the job's start and is left out; the rest are
 * paced from there. The events of the last {@link #RUN_OUT} are left out too: Flink's source sends
 * its offset commit from its fetching thread between polls, and a poll of a topic that receives
 * nothing more waits for its timeout (seconds) first, which a steady stream never does.
 */
final class PacedRun {
  /** How long a job may take from its launch to committing its first offsets. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  /**
   * The end of the pace whose events are not measured: a few checkpoint intervals, so that every
   * measured event's offset is committed while events still arrive.
   */
  static final Duration RUN_OUT = Duration.ofSeconds(3);

  private final String bootstrap;
  private final String eventsTopic;
  private final String group;
  private final int partitions;
  private final int events;
  private final long ratePerSecond;
  private final EventGenerator generator;
  private final Consumer<String> progress;

  /**
   * Paces events {@code 0 .. events-1} into {@code eventsTopic} (empty, {@code partitions}) at
   * {@code ratePerSecond}, for the job that reads it as {@code group}.
   */
  PacedRun(
      String bootstrap,
      String eventsTopic,
      String group,
      int partitions,
      int events,
      long ratePerSecond,
      EventGenerator generator,
      Consumer<String> progress) {
    this.bootstrap = bootstrap;
    this.eventsTopic = eventsTopic;
    this.group = group;
    this.partitions = partitions;
    this.events = events;
    this.ratePerSecond = ratePerSecond;
    this.generator = generator;
    this.progress = progress;
  }

  /**
   * What a paced run measured: the paced events' latency, and when the committed offsets were first
   * seen covering every event ({@link System#nanoTime()}).
   */
  record Measured(Latency latency, long allCoveredNanos) {}

  /**
   * Writes the events while {@code job} runs and waits until its group's offsets cover them all.
   *
   * @return what the run measured; empty when the job's process ended first
   * @throws LabUserError when the job did not start reading or did not catch up in time
   */
  Optional<Measured> drive(BenchProcess job, String label) throws Exception {
    int warmUp = Math.min(partitions, events);
    try (PacedEventWriter writer =
            new PacedEventWriter(bootstrap, eventsTopic, partitions, generator, events);
        CommittedOffsetWatcher offsets =
            new CommittedOffsetWatcher(bootstrap, group, eventsTopic, partitions, events)) {
      writer.write(0, warmUp, ratePerSecond, sent -> {});
      if (!awaitCovered(offsets, warmUp, job, START_TIMEOUT, label + " starting")) {
        return Optional.empty();
      }
      writer.write(
          warmUp,
          events,
          ratePerSecond,
          sent ->
              progress.accept(
                  String.format(
                      "%s: paced %,d of %,d events at %,d/s, offsets committed for %,d",
                      label, sent, events, ratePerSecond, offsets.coveredEvents())));
      Duration catchUp = Duration.ofSeconds(60 + events / 5_000);
      if (!awaitCovered(offsets, events, job, catchUp, label + " catching up")) {
        return Optional.empty();
      }
      // The watcher wrote these times before it counted them covered: complete to read here.
      long[] committed = offsets.committedNanos();
      int measuredEnd = (int) Math.max(warmUp, events - unmeasuredAtEnd(ratePerSecond));
      Latency latency =
          Latency.of(
              Arrays.copyOfRange(writer.sendNanos(), warmUp, measuredEnd),
              Arrays.copyOfRange(committed, warmUp, measuredEnd));
      return Optional.of(new Measured(latency, Arrays.stream(committed).max().orElseThrow()));
    }
  }

  /** The events of the {@link #RUN_OUT} at {@code ratePerSecond}, which are not measured. */
  static long unmeasuredAtEnd(long ratePerSecond) {
    return ratePerSecond * RUN_OUT.toSeconds();
  }

  /** True once {@code count} events are covered; false when the job's process ended first. */
  private boolean awaitCovered(
      CommittedOffsetWatcher offsets, long count, BenchProcess job, Duration timeout, String what)
      throws Exception {
    try {
      return Polling.until(
          timeout,
          CommittedOffsetWatcher.POLL_INTERVAL,
          () -> {
            if (offsets.coveredEvents() >= count) {
              return Optional.of(true);
            }
            return job.isAlive() ? Optional.empty() : Optional.of(false);
          },
          () ->
              new LabFailure(
                  what
                      + ": the offsets committed by group "
                      + group
                      + " cover "
                      + offsets.coveredEvents()
                      + " of "
                      + count
                      + " events of topic "
                      + eventsTopic
                      + " after "
                      + timeout.toSeconds()
                      + " s; see the job's log "
                      + job.log()));
    } catch (LabFailure e) {
      throw new LabUserError(e.getMessage());
    }
  }
}
