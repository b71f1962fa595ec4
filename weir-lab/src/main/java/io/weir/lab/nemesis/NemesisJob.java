package io.weir.lab.nemesis;

import io.weir.examples.RunningCountJob;
import io.weir.examples.WindowJoinJob;
import io.weir.lab.CellTopics;
import io.weir.lab.CommitOrder;
import io.weir.lab.LabUserError;
import io.weir.lab.process.LabJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The job the nemesis lab runs, by the name {@code --job} takes: the seed job (each input record
 * out once, its frequency plus one) or the keyed running count ({@code word,count,id}, the count
 * kept in keyed state), the same job and output the operations matrix runs. Both write the output
 * topic through the transactional Kafka sink with the lab's transactional id prefix; the running
 * count is checked beyond ids for its counts and their order ({@link RunningCountCheck}). The
 * window join ({@link WindowJoinJob}) reads a second input topic as well and is checked against the
 * pairs of both inputs ({@link WindowJoinCheck}). With {@code --sink postgres} the running count is
 * the running totals job of the PostgreSQL examples, writing one row per input record ({@code id,
 * word, updates}: the word's count) and each word's totals through the exactly-once PostgreSQL
 * sink.
 */
public enum NemesisJob {
  SEED("seed"),
  RUNNING_COUNT("running-count"),
  WINDOW_JOIN("window-join");

  private final String key;

  NemesisJob(String key) {
    this.key = key;
  }

  /** The name in {@code --job}, the log and the report. */
  public String key() {
    return key;
  }

  /** The job named {@code key}; one line for an unknown name. */
  public static NemesisJob parse(String key) {
    return Arrays.stream(values())
        .filter(job -> job.key.equals(key.strip().toLowerCase(Locale.ROOT)))
        .findFirst()
        .orElseThrow(
            () ->
                new LabUserError(
                    "--job: the nemesis lab runs no job '"
                        + key
                        + "'; known: "
                        + Arrays.stream(values())
                            .map(NemesisJob::key)
                            .collect(Collectors.joining(","))));
  }

  /** The topics the lab feeds: the input topic, and for the window join its second input. */
  List<String> inputTopics(CellTopics topics) {
    return this == WINDOW_JOIN
        ? List.of(topics.input(), secondInput(topics))
        : List.of(topics.input());
  }

  /** The window join's second input topic. */
  static String secondInput(CellTopics topics) {
    return topics.input() + WindowJoinJob.SECOND_INPUT_SUFFIX;
  }

  /**
   * The longest the committed output may stay still after a fault healed, given the bound of where
   * the job runs: that bound, and for the window join also the wall time the feed takes to close a
   * window (its size and the watermark's lag, as ids fed at {@code ratePerSecond}, an id being a
   * millisecond of event time), since a join has nothing to commit until a window closes.
   */
  Duration stallBound(Duration deploymentBound, long ratePerSecond) {
    if (this != WINDOW_JOIN) {
      return deploymentBound;
    }
    long windowIds = WindowJoinJob.WINDOW_SIZE.plus(WindowJoinJob.OUT_OF_ORDERNESS).toMillis();
    return deploymentBound.plusMillis(windowIds * 1000 / Math.max(1, ratePerSecond));
  }

  /**
   * The arguments of {@code weir run} that start this job on the lab's cluster and topics, with
   * {@code runOptions} (those of where it runs) among them, writing to PostgreSQL at {@code
   * postgresUrl} when there is one.
   */
  List<String> runArguments(
      String bootstrap,
      CellTopics topics,
      Path checkpoints,
      List<String> runOptions,
      Optional<String> postgresUrl) {
    return labJob(topics, postgresUrl)
        .runArguments(CommitOrder.SOURCE_FIRST, bootstrap, topics, checkpoints, runOptions);
  }

  private LabJob labJob(CellTopics topics, Optional<String> postgresUrl) {
    if (postgresUrl.isPresent()) {
      return LabJob.postgres(postgresUrl.get()); // a running count, as NemesisSink checks
    }
    return switch (this) {
      case SEED -> LabJob.seed();
      case RUNNING_COUNT -> userJob(RunningCountJob.class, topics);
      case WINDOW_JOIN -> userJob(WindowJoinJob.class, topics);
    };
  }

  private static LabJob userJob(Class<?> jobClass, CellTopics topics) {
    return LabJob.user(
        jobClass.getName(),
        List.of(
            "--checkpoint-interval",
            "1000",
            "--transactional-id-prefix",
            topics.transactionalIdPrefix()));
  }
}
