package io.weir.lab.nemesis;

import io.weir.lab.LabUserError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The faults the nemesis injects, by the name {@code --faults} takes. */
public enum FaultKind {
  /** The job cut from one broker (a route to nowhere on the job's host), the rest reachable. */
  PARTITION,
  /** A process frozen (SIGSTOP) past its session timeouts, then woken (SIGCONT). */
  PAUSE,
  /** A process killed (SIGKILL) and started again a few seconds later, brokers included. */
  KILL,
  /**
   * One broker cut from everyone: the transaction coordinator of the sink's transactional id or the
   * leader of an output partition.
   */
  BROKER,
  /**
   * The brokers split two against one, the job on one side: with the majority and with the minority
   * in turn. The lab's own clients (the feed, the checker) reach both sides.
   */
  SPLIT,
  /** The file system of the job's checkpoint directory full to the last byte, then freed. */
  DISK,
  /**
   * On the HA cluster: a task manager cut from the job managers but not from Kafka or ZooKeeper, so
   * that it may go on writing while the job managers count it lost (a zombie writer).
   */
  ZOMBIE,
  /** On the HA cluster: the leading job manager cut from ZooKeeper, past its session timeout. */
  LEADER;

  /** The name in {@code --faults}, the log and the report. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Every kind, in declaration order. */
  public static List<FaultKind> all() {
    return List.of(values());
  }

  /**
   * The kinds named in {@code keys} (e.g. {@code partition,kill}); one line for an unknown name.
   */
  public static List<FaultKind> parse(List<String> keys) {
    List<FaultKind> kinds = new ArrayList<>();
    for (String key : keys) {
      FaultKind kind =
          Arrays.stream(values())
              .filter(each -> each.key().equals(key.strip().toLowerCase(Locale.ROOT)))
              .findFirst()
              .orElseThrow(
                  () ->
                      new LabUserError(
                          "--faults: unknown fault kind '"
                              + key
                              + "'; known: "
                              + all().stream()
                                  .map(FaultKind::key)
                                  .collect(Collectors.joining(","))));
      if (!kinds.contains(kind)) {
        kinds.add(kind);
      }
    }
    if (kinds.isEmpty()) {
      throw new LabUserError("--faults names no fault kind");
    }
    return kinds;
  }
}
