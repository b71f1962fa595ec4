package io.weir.lab.operations;

/**
 * The options of the job and of {@code weir} that operations use beyond a plain run. Kept in one
 * place: an option this build does not have yet makes its cell fail with "option not supported",
 * and one that lands under another name is renamed here.
 */
public final class OperationOptions {
  /** Job option: where a source without checkpoint or group offsets starts, {@code latest}. */
  static final String STARTING_OFFSETS = "--starting-offsets";

  /** Job option: how often a source looks for new partitions, in milliseconds. */
  static final String PARTITION_DISCOVERY_INTERVAL = "--partition-discovery-interval";

  /** Job option: what a source does with an out-of-range offset, {@code fail|earliest}. */
  static final String ON_OUT_OF_RANGE = "--on-out-of-range";

  /** Job option: the topic that takes records that failed the job repeatedly. */
  static final String DEAD_LETTER_TOPIC = "--dead-letter-topic";

  /** {@code weir stop --savepoint DIR ID}: stop with a savepoint, every sink committed. */
  public static final String STOP_COMMAND = "stop";

  private OperationOptions() {}
}
