package io.weir.kafka.transaction;

import java.util.regex.Pattern;

/**
 * The transactional ids of one exactly-once Kafka writer (a sink, a source's dead-letter producer):
 * {@code <prefix>-<subtask>-<n>}, matched whole, so that the ids of prefix {@code orders-v1} never
 * take in those of {@code orders-v10} or {@code orders-v1-2}: exactly two numbers follow the
 * prefix.
 */
public final class TransactionalIds {
  private TransactionalIds() {}

  /** Every id of {@code prefix}; group 1 is the subtask, group 2 the pool index. */
  public static Pattern of(String prefix) {
    return Pattern.compile(Pattern.quote(prefix) + "-(\\d+)-(\\d+)");
  }

  /** The ids of {@code prefix}, as a job's errors name them. */
  public static String describe(String prefix) {
    return "Kafka transactional ids '" + prefix + "-<subtask>-<n>'";
  }
}
