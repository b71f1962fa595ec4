package io.weir.lab.nemesis;

import io.weir.examples.SeedRecords;
import io.weir.lab.OutputVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The verdict over a nemesis run, in the Jepsen sense, once the input stopped and the output
 * settled: every input id exactly once in the {@code read_committed} output (lost, duplicated); no
 * record shown to the live {@code read_committed} reader that the log holds only in an aborted
 * transaction (an aborted read: present to {@code read_uncommitted}, absent to {@code
 * read_committed}) or no longer holds at all (a truncated commit); and for each fault, how long the
 * committed output took to move again after it was healed. For the running count also its counts
 * against a reference from the input, and their order ({@link RunningCountCheck}).
 */
final class NemesisChecker {
  private final String bootstrap;
  private final String inputTopic;
  private final String outputTopic;
  private final NemesisJob job;

  NemesisChecker(String bootstrap, String inputTopic, String outputTopic, NemesisJob job) {
    this.bootstrap = bootstrap;
    this.inputTopic = inputTopic;
    this.outputTopic = outputTopic;
    this.job = job;
  }

  /** What the checker found; {@code runningCount} only for the running-count job. */
  record Findings(
      long records,
      OutputVerifier.Verdict verdict,
      long abortedReads,
      long truncatedCommits,
      long abortedRecords,
      List<Duration> stalls,
      Optional<RunningCountCheck.Result> runningCount) {

    Duration maxStall() {
      return stalls.stream().max(Duration::compareTo).orElse(Duration.ZERO);
    }
  }

  /**
   * Reads the input and the output topic to their ends and checks them against what the live reader
   * was shown; {@code watchEnd} is when the live reader stopped.
   */
  Findings check(
      List<Fault> faults,
      List<CommittedOutputWatch.Arrival> arrivals,
      Map<Integer, Set<Long>> shownCommitted,
      Instant watchEnd) {
    OutputVerifier.Reading input = new OutputVerifier(bootstrap, inputTopic).read(false);
    Log committed = readLog(true);
    Log uncommitted = readLog(false);
    long abortedReads = 0;
    long truncated = 0;
    for (Map.Entry<Integer, Set<Long>> shown : shownCommitted.entrySet()) {
      Set<Long> committedNow = committed.offsets.getOrDefault(shown.getKey(), Set.of());
      Set<Long> inLog = uncommitted.offsets.getOrDefault(shown.getKey(), Set.of());
      for (long offset : shown.getValue()) {
        if (!committedNow.contains(offset)) {
          if (inLog.contains(offset)) {
            abortedReads++;
          } else {
            truncated++;
          }
        }
      }
    }
    return new Findings(
        input.records(),
        committed.reading().verifyAgainst(input),
        abortedReads,
        truncated,
        uncommitted.records - committed.records,
        stalls(faults, arrivals, watchEnd),
        job == NemesisJob.RUNNING_COUNT
            ? Optional.of(RunningCountCheck.read(bootstrap, inputTopic, outputTopic))
            : Optional.empty());
  }

  /**
   * For each fault: from its heal to the first committed output after it (until {@code watchEnd}
   * when none came).
   */
  static List<Duration> stalls(
      List<Fault> faults, List<CommittedOutputWatch.Arrival> arrivals, Instant watchEnd) {
    List<Duration> stalls = new ArrayList<>();
    for (Fault fault : faults) {
      Instant next =
          arrivals.stream()
              .map(CommittedOutputWatch.Arrival::at)
              .filter(at -> at.isAfter(fault.end()))
              .findFirst()
              .orElse(watchEnd);
      stalls.add(Duration.between(fault.end(), next));
    }
    return stalls;
  }

  private Log readLog(boolean committedOnly) {
    Log log = new Log();
    new OutputVerifier(bootstrap, outputTopic)
        .forEachRecord(
            committedOnly,
            record -> {
              log.records++;
              log.offsets
                  .computeIfAbsent(record.partition(), partition -> new HashSet<>())
                  .add(record.offset());
              String value = new String(record.value(), StandardCharsets.UTF_8);
              log.counts.merge(SeedRecords.timestamp(value), 1, Integer::sum);
            });
    return log;
  }

  /** A topic as one reader saw it: ids, offsets by partition, records. */
  private static final class Log {
    private final Map<Long, Integer> counts = new HashMap<>();
    private final Map<Integer, Set<Long>> offsets = new HashMap<>();
    private long records;

    OutputVerifier.Reading reading() {
      return new OutputVerifier.Reading(counts, records);
    }
  }
}
