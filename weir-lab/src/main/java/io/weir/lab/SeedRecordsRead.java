package io.weir.lab;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Reads the seed records of an input topic, skipping the records that are not seed records (such as
 * a poison record a cell put there on purpose): those have no id to expect in the output.
 */
public final class SeedRecordsRead {
  private SeedRecordsRead() {}

  /** How often each id appears among the topic's seed records. */
  public static OutputVerifier.Reading ids(String bootstrap, String topic) {
    Map<Long, Integer> counts = new HashMap<>();
    long[] records = {0};
    values(
        bootstrap,
        topic,
        false,
        (id, value) -> {
          records[0]++;
          counts.merge(id, 1, Integer::sum);
        });
    return new OutputVerifier.Reading(counts, records[0]);
  }

  /** Hands the id and value of each of the topic's seed records to {@code consumer}. */
  static void values(
      String bootstrap, String topic, boolean committedOnly, BiConsumer<Long, String> consumer) {
    new OutputVerifier(bootstrap, topic)
        .forEachRecord(
            committedOnly,
            record -> {
              String value =
                  record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
              Long id = idOf(value);
              if (id != null) {
                consumer.accept(id, value);
              }
            });
  }

  /** The record's id, or null when it is not a seed record. */
  public static Long idOf(String value) {
    try {
      SeedRecords.word(value);
      return SeedRecords.timestamp(value);
    } catch (IllegalArgumentException e) {
      return null; // NumberFormatException included
    }
  }
}
