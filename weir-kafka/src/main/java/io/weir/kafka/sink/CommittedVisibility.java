package io.weir.kafka.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, when a subtask ends, until {@code read_committed} readers can read what its committed
 * transactions wrote. A commit returns once the transaction coordinator logged it; the brokers then
 * write the commit markers into the partitions, and until a partition's marker is written its last
 * stable offset, where such readers stop, stays short of the transaction. Without this wait a job
 * could end, and a script read its output right after, short of the last transaction.
 *
 * <p>Bounded: an open transaction of another producer on the same partition holds its last stable
 * offset too, for as long as that producer keeps it open. Past the timeout this logs one warning
 * naming the partitions and returns; their records are committed and become readable when the
 * markers land, so nothing is lost. Called on the task thread, after the last commit returned.
 */
final class CommittedVisibility {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);
  private static final long FIRST_BACKOFF_MILLIS = 5;
  private static final long MAX_BACKOFF_MILLIS = 100;

  private final String operatorName;
  private final String topic;
  private final Supplier<Admin> admins;
  private final Duration timeout;

  CommittedVisibility(String operatorName, String topic, Supplier<Admin> admins, Duration timeout) {
    this.operatorName = operatorName;
    this.topic = topic;
    this.admins = admins;
    this.timeout = timeout;
  }

  /**
   * Returns once every partition's {@code read_committed} end is past the highest offset written
   * there, or the timeout passed (then it warns).
   *
   * @param lastWritten the highest offset committed transactions wrote, by partition
   */
  void await(Map<Integer, Long> lastWritten) {
    if (lastWritten.isEmpty() || timeout.isZero()) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<Integer, Long> notReadable = new TreeMap<>(lastWritten);
    try (Admin admin = admins.get()) {
      long backoff = FIRST_BACKOFF_MILLIS;
      while (!notReadable.isEmpty() && System.nanoTime() < deadline) {
        Set<Integer> readable = readable(admin, notReadable, deadline);
        notReadable.keySet().removeAll(readable);
        if (!notReadable.isEmpty()) {
          Thread.sleep(backoff);
          backoff = Math.min(2 * backoff, MAX_BACKOFF_MILLIS);
        }
      }
    } catch (InterruptedException e) {
      // The task is cancelled: its end is no longer a successful one.
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException | RuntimeException e) {
      LOG.warn(
          "Sink '{}' ends without knowing whether partitions {} of topic '{}' are readable yet:"
              + " {}. Their transactions are committed; nothing is lost.",
          operatorName,
          notReadable.keySet(),
          topic,
          e.getMessage() == null ? e.toString() : e.getMessage());
      return;
    }
    if (!notReadable.isEmpty()) {
      LOG.warn(
          "Sink '{}' ends with partitions {} of topic '{}' not yet readable by read_committed"
              + " readers after {} ms: their transactions are committed, but the commit markers"
              + " are not all written, or an open transaction of another producer on these"
              + " partitions holds readers back until it ends. Nothing is lost: the records become"
              + " readable then.",
          operatorName,
          notReadable.keySet(),
          topic,
          timeout.toMillis());
    }
  }

  /**
   * Of {@code partitions}, those whose read_committed end is past the offset given for them; none
   * when the deadline passes before the broker answers.
   */
  private Set<Integer> readable(Admin admin, Map<Integer, Long> partitions, long deadline)
      throws ExecutionException, InterruptedException {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int partition : partitions.keySet()) {
      request.put(new TopicPartition(topic, partition), OffsetSpec.latest());
    }
    long remainingMillis =
        Math.min(
            Integer.MAX_VALUE,
            Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    ListOffsetsOptions options =
        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs((int) remainingMillis);
    Map<TopicPartition, ListOffsetsResultInfo> ends;
    try {
      ends = admin.listOffsets(request, options).all().get(remainingMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return Set.of();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
        return Set.of();
      }
      throw e;
    }
    Set<Integer> readable = new HashSet<>();
    ends.forEach(
        (partition, end) -> {
          if (end.offset() > partitions.get(partition.partition())) {
            readable.add(partition.partition());
          }
        });
    return readable;
  }
}
