package io.weir.lab.nemesis;

import io.weir.examples.SeedRecords;
import io.weir.examples.WindowJoinJob;
import io.weir.lab.OutputVerifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The window join's committed output against a reference computed from its two inputs by a plain
 * loop with the job's windows ({@link WindowJoinJob#WINDOW_SIZE}): every pair of a first and a
 * second record of one word in one window exactly once, as {@code word,firstId,secondId}.
 *
 * <p>A window closes when the watermark passes its end, and the watermark stops where the input
 * stopped: the last {@link WindowJoinJob#OUT_OF_ORDERNESS} of the slowest partition never closes.
 * So a window well before the final watermark must be in the output, one well after it must not,
 * and one near it may be either. A window's pairs come out together (one firing, one transaction),
 * so a window that shows any of its pairs must show all of them.
 */
final class WindowJoinCheck {
  private static final long SIZE_MILLIS = WindowJoinJob.WINDOW_SIZE.toMillis();

  /**
   * @param inputRecords the records of both inputs
   * @param expectedRows the pairs of the windows that closed (a window that may or may not have
   *     closed counts when the output shows it)
   * @param committedRows the rows in the committed output
   * @param missing expected pairs absent from the output
   * @param extra rows that are no expected pair, and every repeat of one that is
   */
  record Result(
      long inputRecords, long expectedRows, long committedRows, long missing, long extra) {}

  /** One record of an input, and the partition it is in. */
  record InputRecord(int partition, String value) {}

  private WindowJoinCheck() {}

  /** Reads both inputs and the committed output to their ends and checks them. */
  static Result read(String bootstrap, String firstTopic, String secondTopic, String outputTopic) {
    List<InputRecord> first = readInput(bootstrap, firstTopic);
    List<InputRecord> second = readInput(bootstrap, secondTopic);
    List<String> committed = new ArrayList<>();
    new OutputVerifier(bootstrap, outputTopic)
        .forEachRecord(
            true, record -> committed.add(new String(record.value(), StandardCharsets.UTF_8)));
    return check(first, second, committed, finalWatermark(first, second));
  }

  /**
   * The watermark the job reaches once it read both inputs to their ends: the smallest over every
   * partition of both of its largest timestamp, less the out-of-orderness bound and one.
   */
  static long finalWatermark(List<InputRecord> first, List<InputRecord> second) {
    return Math.min(smallestPartitionMaximum(first), smallestPartitionMaximum(second))
        - WindowJoinJob.OUT_OF_ORDERNESS.toMillis()
        - 1;
  }

  /** The committed rows against the pairs of both inputs' windows, given the final watermark. */
  static Result check(
      List<InputRecord> first, List<InputRecord> second, List<String> committed, long watermark) {
    Map<WindowKey, Set<String>> expected = expectedPairs(first, second);
    Map<String, Integer> rowCounts = new HashMap<>();
    Set<WindowKey> shown = new HashSet<>();
    for (String row : committed) {
      rowCounts.merge(row, 1, Integer::sum);
      shown.add(windowOf(row));
    }
    long expectedRows = 0;
    long missing = 0;
    Set<String> expectedRowSet = new HashSet<>();
    for (Map.Entry<WindowKey, Set<String>> window : expected.entrySet()) {
      if (!mustShow(window.getKey(), watermark) && !shown.contains(window.getKey())) {
        continue; // may not have closed, and did not
      }
      expectedRows += window.getValue().size();
      for (String row : window.getValue()) {
        expectedRowSet.add(row);
        if (!rowCounts.containsKey(row)) {
          missing++;
        }
      }
    }
    long extra = 0;
    for (Map.Entry<String, Integer> row : rowCounts.entrySet()) {
      extra += expectedRowSet.contains(row.getKey()) ? row.getValue() - 1 : row.getValue();
    }
    return new Result(first.size() + second.size(), expectedRows, committed.size(), missing, extra);
  }

  /** Whether a window ended so far before the final watermark that it must have closed. */
  private static boolean mustShow(WindowKey window, long watermark) {
    // A window's width below the watermark, so that no off-by-one of the watermark matters.
    return window.start() + 2 * SIZE_MILLIS - 1 <= watermark;
  }

  private static Map<WindowKey, Set<String>> expectedPairs(
      List<InputRecord> first, List<InputRecord> second) {
    Map<WindowKey, List<Long>> secondIds = new HashMap<>();
    for (InputRecord record : second) {
      long id = SeedRecords.timestamp(record.value());
      secondIds
          .computeIfAbsent(
              new WindowKey(SeedRecords.word(record.value()), windowStart(id)),
              key -> new ArrayList<>())
          .add(id);
    }
    Map<WindowKey, Set<String>> pairs = new HashMap<>();
    for (InputRecord record : first) {
      String word = SeedRecords.word(record.value());
      long id = SeedRecords.timestamp(record.value());
      WindowKey window = new WindowKey(word, windowStart(id));
      for (long secondId : secondIds.getOrDefault(window, List.of())) {
        pairs
            .computeIfAbsent(window, key -> new HashSet<>())
            .add(WindowJoinJob.row(word, id, secondId));
      }
    }
    return pairs;
  }

  private static WindowKey windowOf(String row) {
    int comma = row.indexOf(',');
    int last = row.lastIndexOf(',');
    long firstId = Long.parseLong(row, comma + 1, last, 10);
    return new WindowKey(row.substring(0, comma), windowStart(firstId));
  }

  private static long windowStart(long timestamp) {
    return timestamp - Math.floorMod(timestamp, SIZE_MILLIS);
  }

  private static long smallestPartitionMaximum(List<InputRecord> records) {
    Map<Integer, Long> maximum = new HashMap<>();
    for (InputRecord record : records) {
      maximum.merge(record.partition(), SeedRecords.timestamp(record.value()), Math::max);
    }
    return maximum.values().stream().mapToLong(Long::longValue).min().orElse(Long.MIN_VALUE);
  }

  private static List<InputRecord> readInput(String bootstrap, String topic) {
    List<InputRecord> records = new ArrayList<>();
    new OutputVerifier(bootstrap, topic)
        .forEachRecord(
            false,
            record ->
                records.add(
                    new InputRecord(
                        record.partition(), new String(record.value(), StandardCharsets.UTF_8))));
    return records;
  }

  /** One word's window. */
  private record WindowKey(String word, long start) {}
}
