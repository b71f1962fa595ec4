package io.weir.examples;

import java.util.concurrent.locks.LockSupport;

/**
 * The seed's records: {@code word,frequency,timestamp}, e.g. {@code a,5,1572845161023}. Generated
 * records have unique timestamps, so the timestamp doubles as the record's id when counting what
 * came out exactly once.
 */
public final class SeedRecords {
  /** The timestamp of generated record 0. */
  public static final long BASE_TIMESTAMP = 1_572_845_161_023L;

  private static final int WORDS = 1000;

  private SeedRecords() {}

  /** Record {@code index} of a generated input: ~1,000 distinct words, unique timestamps. */
  public static String generate(long index) {
    return "w" + (index % WORDS) + "," + (index % 10) + "," + (BASE_TIMESTAMP + index);
  }

  public static String word(String record) {
    int comma = record.indexOf(',');
    if (comma <= 0) {
      throw new IllegalArgumentException("Not a word,frequency,timestamp record: " + record);
    }
    return record.substring(0, comma);
  }

  /** The record's timestamp, which is its id. */
  public static long timestamp(String record) {
    int last = record.lastIndexOf(',');
    if (last < 0) {
      throw new IllegalArgumentException("Not a word,frequency,timestamp record: " + record);
    }
    return Long.parseLong(record, last + 1, record.length(), 10);
  }

  /** The record's frequency. */
  public static long frequency(String record) {
    int first = record.indexOf(',');
    int last = record.lastIndexOf(',');
    if (first <= 0 || last <= first) {
      throw new IllegalArgumentException("Not a word,frequency,timestamp record: " + record);
    }
    return Long.parseLong(record, first + 1, last, 10);
  }

  /** The seed's map: the same record with its frequency plus one. */
  /**
   * {@link #incrementFrequency}, taking at least {@code delayNanos} (parked, not spinning, so a
   * slow job does not take a core from the others on the machine).
   */
  public static String incrementFrequencySlowly(String record, long delayNanos) {
    long until = System.nanoTime() + delayNanos;
    String incremented = incrementFrequency(record);
    for (long left = delayNanos; left > 0; left = until - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
    return incremented;
  }

  public static String incrementFrequency(String record) {
    int first = record.indexOf(',');
    int last = record.lastIndexOf(',');
    if (first <= 0 || last <= first) {
      throw new IllegalArgumentException("Not a word,frequency,timestamp record: " + record);
    }
    long frequency = Long.parseLong(record, first + 1, last, 10);
    return record.substring(0, first + 1) + (frequency + 1) + record.substring(last);
  }
}
