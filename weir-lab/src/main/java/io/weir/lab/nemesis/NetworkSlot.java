package io.weir.lab.nemesis;

/**
 * Which of the machine's nemesis lab networks a lab uses: slot {@code n} has its own bridge,
 * namespace prefix, address range and checkpoint-volume source, so labs in different slots run at
 * the same time without seeing each other, and a clean-up of one slot leaves the others alone. Slot
 * 0 is the default.
 */
public record NetworkSlot(int number) {
  /** The most slots: the number must fit an address octet and a short link name. */
  public static final int COUNT = 10;

  public static final NetworkSlot DEFAULT = new NetworkSlot(0);

  public NetworkSlot {
    if (number < 0 || number >= COUNT) {
      throw new IllegalArgumentException(
          "a nemesis network slot is 0 to " + (COUNT - 1) + ", not " + number);
    }
  }

  /** The bridge joining the slot's hosts to the lab. */
  String bridge() {
    return "weirnem" + number;
  }

  /** The prefix of every namespace of the slot; no slot's prefix starts with another's. */
  String namespacePrefix() {
    return number == 0 ? "weir-nemesis-" : "weir-nemesis" + number + "-";
  }

  /** The first three octets of the slot's addresses, with the trailing dot. */
  String subnet() {
    return "10.77." + number + ".";
  }

  /** The bridge-side name of host {@code index}'s veth pair (link names are short). */
  String bridgeLink(int index) {
    return number == 0 ? "wnem" + index : "wnem" + number + "x" + index;
  }

  /** The source name the slot's checkpoint volumes are mounted from. */
  String volumeSource() {
    return number == 0 ? "weir-nemesis-checkpoints" : "weir-nemesis" + number + "-checkpoints";
  }
}
