package io.weir.lab.nemesis;

import io.weir.examples.SeedRecords;
import io.weir.lab.CellTopics;
import io.weir.lab.OutputVerifier;
import io.weir.lab.TableOutput;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The verdict over a nemesis run, in the Jepsen sense, once the input stopped and the output
 * settled: every input id exactly once in the {@code read_committed} output (lost, duplicated); no
 * record shown to the live {@code read_committed} reader that the log holds only in an aborted
 * transaction (an aborted read: present to {@code read_uncommitted}, absent to {@code
 * read_committed}) or no longer holds at all (a truncated commit); and for each fault, how long the
 * committed output took to move again after it was healed. For the running count also its counts
 * against a reference from the input, and their order ({@link RunningCountCheck}); for the window
 * join its rows against the pairs of its two inputs ({@link WindowJoinCheck}). With {@code --sink
 * postgres} the committed rows of PostgreSQL's tables instead of the output topic.
 */
final class NemesisChecker {
  private final String bootstrap;
  private final String inputTopic;
  private final String secondInputTopic;
  private final String outputTopic;
  private final NemesisJob job;
  private final Optional<TableOutput> table;

  /**
   * A checker of the job's output: the output topic, or the tables of {@code table} when it writes
   * to PostgreSQL.
   */
  NemesisChecker(String bootstrap, CellTopics topics, NemesisJob job, Optional<TableOutput> table) {
    this.bootstrap = bootstrap;
    this.inputTopic = topics.input();
    this.secondInputTopic = NemesisJob.secondInput(topics);
    this.outputTopic = topics.output();
    this.job = job;
    this.table = table;
  }

  /**
   * What the checker found; {@code runningCount} only for the running-count job, {@code totalsOff}
   * (the words whose totals in PostgreSQL differ from the input's) only with PostgreSQL.
   */
  record Findings(
      long records,
      OutputVerifier.Verdict verdict,
      long abortedReads,
      long truncatedCommits,
      long abortedRecords,
      List<Duration> stalls,
      Optional<RunningCountCheck.Result> runningCount,
      OptionalLong totalsOff) {

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
      List<OutputWatch.Arrival> arrivals,
      Map<Integer, Set<Long>> shownCommitted,
      Instant watchEnd)
      throws SQLException {
    OutputVerifier.Reading input = new OutputVerifier(bootstrap, inputTopic).read(false);
    if (table.isPresent()) {
      return checkTable(table.get(), input, stalls(faults, arrivals, watchEnd));
    }
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
    if (job == NemesisJob.WINDOW_JOIN) {
      return joinFindings(
          committed, uncommitted, abortedReads, truncated, stalls(faults, arrivals, watchEnd));
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
            : Optional.empty(),
        OptionalLong.empty());
  }

  /**
   * The window join's findings: its rows against the pairs of both inputs' closed windows, counted
   * as the verdict (a missing pair lost, an extra or repeated row duplicated), over the records of
   * both inputs.
   */
  private Findings joinFindings(
      Log committed, Log uncommitted, long abortedReads, long truncated, List<Duration> stalls) {
    WindowJoinCheck.Result join =
        WindowJoinCheck.read(bootstrap, inputTopic, secondInputTopic, outputTopic);
    return new Findings(
        join.inputRecords(),
        new OutputVerifier.Verdict(
            join.expectedRows(), join.committedRows(), join.missing(), join.extra()),
        abortedReads,
        truncated,
        uncommitted.records - committed.records,
        stalls,
        Optional.empty(),
        OptionalLong.empty());
  }

  /**
   * PostgreSQL's committed rows: every input id once in the updates table, each row's count and
   * each word's totals against the input's. A database shows committed rows only: no aborted read
   * to find, no aborted record to count.
   */
  private Findings checkTable(
      TableOutput table, OutputVerifier.Reading input, List<Duration> stalls) throws SQLException {
    return new Findings(
        input.records(),
        table.read().verifyAgainst(input),
        0,
        0,
        0,
        stalls,
        Optional.of(
            RunningCountCheck.readTable(bootstrap, inputTopic, table.jdbcUrl(), table.tables())),
        OptionalLong.of(table.wordsOffReference(input)));
  }

  /**
   * For each fault: from its heal to the first committed output after it (until {@code watchEnd}
   * when none came).
   */
  static List<Duration> stalls(
      List<Fault> faults, List<OutputWatch.Arrival> arrivals, Instant watchEnd) {
    List<Duration> stalls = new ArrayList<>();
    for (Fault fault : faults) {
      Instant next =
          arrivals.stream()
              .map(OutputWatch.Arrival::at)
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
