package io.weir.lab;

/**
 * The names one lab cell's job uses, so that cells sharing a broker cannot see each other's
 * records, offsets or transactions.
 */
public record CellTopics(String input, String output, String group, String transactionalIdPrefix) {

  /** The given topics with the lab's group and transactional id prefix. */
  public static CellTopics of(String input, String output) {
    return new CellTopics(input, output, "weir-lab", "weir-lab");
  }

  /** The seed job's own defaults, which the demos run it with. */
  public static CellTopics seedDefaults() {
    return new CellTopics("foo", "bar", "weir-seed", "weir-seed");
  }

  /** Names with a suffix, for cells that share a broker. */
  public CellTopics suffixed(String suffix) {
    return new CellTopics(
        input + "-" + suffix,
        output + "-" + suffix,
        group + "-" + suffix,
        transactionalIdPrefix + "-" + suffix);
  }
}
