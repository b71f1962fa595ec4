package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.NotifyOrder;
import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.runtime.checkpoint.NotificationLog.Notification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The order of {@code notifyCheckpointComplete} calls: inside one task the chain is told tail first
 * by default (sink, map, source), head first with {@link NotifyOrder#FORWARD}; with a keyBy each of
 * the two tasks tells its own chain in that order. Every listener hears of checkpoints in id order,
 * and a sink that commits on a thread of its own has finished committing before the source of its
 * chain is told.
 */
@Timeout(60)
class NotifyOrderTest {

  @BeforeEach
  void clearLog() {
    NotificationLog.clear();
  }

  @Test
  void when_chainedJobUsesDefaultOrder_then_sinkMapSourceAreToldInThatOrder() throws Exception {
    // when
    JobResult result = runSeedShapedJob(true, NotifyOrder.REVERSE);

    // then
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    assertEachCheckpointToldInOrder(List.of("sink", "map", "source"));
  }

  @Test
  void when_chainedJobUsesForwardOrder_then_sourceMapSinkAreToldInThatOrder() throws Exception {
    // when
    JobResult result = runSeedShapedJob(true, NotifyOrder.FORWARD);

    // then
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    assertEachCheckpointToldInOrder(List.of("source", "map", "sink"));
  }

  @Test
  void when_keyedJobRunsAsTwoTasks_then_eachTaskTellsItsOwnChainTailFirst() throws Exception {
    // when
    JobResult result = runSeedShapedJob(false, NotifyOrder.REVERSE);

    // then: the source task tells only the source, the other task the sink before the map
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    Map<String, List<Notification>> byTask =
        NotificationLog.notifications().stream()
            .collect(Collectors.groupingBy(Notification::thread));
    assertThat(byTask).hasSize(2);
    assertThat(byTask.values())
        .anySatisfy(
            task -> assertThat(task).extracting(Notification::listener).containsOnly("source"))
        .anySatisfy(task -> assertToldInOrder(task, List.of("sink", "map")));
    assertIdsGrowPerListener();
  }

  @Test
  void when_chainedSinkCommitsInBackground_then_itsCommitEndsBeforeTheSourceIsTold()
      throws Exception {
    // given: the seed's one-task plan with a sink whose commits take a while on their own thread
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.addSource(new SplitSequenceSource("source", 0, 4_000, 1, 8_000))
        .uid("source")
        .addSink(new SlowCommitSink<>("sink-commit"))
        .uid("sink");

    // when
    JobResult result = env.execute("notify-order-background-commit");

    // then: the source heard of no checkpoint before the commits up to it returned
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    List<Notification> log = NotificationLog.notifications();
    assertThat(log).extracting(Notification::listener).contains("sink-commit", "source");
    for (int i = 0; i < log.size(); i++) {
      Notification told = log.get(i);
      if (told.listener().equals("source")) {
        List<Notification> later = log.subList(i + 1, log.size());
        assertThat(later)
            .as("commits that ended after the source heard of checkpoint " + told.checkpointId())
            .noneMatch(
                commit ->
                    commit.listener().equals("sink-commit")
                        && commit.checkpointId() <= told.checkpointId());
      }
    }
  }

  /**
   * {@code source -> [keyBy] -> map -> sink} at parallelism 1, as the seed job: one task when
   * {@code chained}, else two.
   */
  private static JobResult runSeedShapedJob(boolean chained, NotifyOrder order) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.config().notifyOrder(order);
    DataStream<Long> input =
        env.addSource(new SplitSequenceSource("source", 0, 4_000, 1, 8_000)).uid("source");
    DataStream<Long> mapped =
        chained
            ? input.map(new ListeningMap<>("map"))
            : input.keyBy(i -> i % 4).map(new ListeningMap<>("map"));
    mapped.uid("map").addSink(new ListeningSink<>("sink")).uid("sink");
    return env.execute(chained ? "notify-order-chained" : "notify-order-keyed");
  }

  private static void assertEachCheckpointToldInOrder(List<String> expected) {
    List<Notification> notifications = NotificationLog.notifications();
    assertThat(notifications)
        .extracting(Notification::thread)
        .containsOnly(notifications.get(0).thread());
    assertToldInOrder(notifications, expected);
    assertIdsGrowPerListener();
  }

  /** Every checkpoint's notifications, in arrival order, are exactly {@code expected}. */
  private static void assertToldInOrder(List<Notification> notifications, List<String> expected) {
    Map<Long, List<String>> byCheckpoint =
        notifications.stream()
            .collect(
                Collectors.groupingBy(
                    Notification::checkpointId,
                    Collectors.mapping(Notification::listener, Collectors.toList())));
    assertThat(byCheckpoint).isNotEmpty();
    assertThat(byCheckpoint.values()).allSatisfy(order -> assertThat(order).isEqualTo(expected));
  }

  private static void assertIdsGrowPerListener() {
    Map<String, List<Long>> idsByListener =
        NotificationLog.notifications().stream()
            .collect(
                Collectors.groupingBy(
                    Notification::listener,
                    Collectors.mapping(Notification::checkpointId, Collectors.toList())));
    assertThat(idsByListener.values())
        .allSatisfy(ids -> assertThat(ids).isSorted().doesNotHaveDuplicates());
  }
}
