package io.weir.cli.cluster;

import io.weir.cluster.rpc.JobSubmission;
import io.weir.kafka.testing.KafkaTestClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * What the tests of a {@link FenceHeldJob} on a cluster share: its submission, a task manager's log
 * and id, and the committed output counted by value against every id once.
 */
final class FenceHeldRuns {
  private static final Pattern OFFERS = Pattern.compile("task manager (tm-[0-9a-f]+) offers");

  private FenceHeldRuns() {}

  static JobSubmission submission(
      String bootstrapServers,
      String output,
      String transactionalIdPrefix,
      long records,
      long recordsPerSecond,
      long restartDelaySeconds) {
    return new JobSubmission(
        FenceHeldJob.class.getName(),
        List.of(
            bootstrapServers,
            output,
            transactionalIdPrefix,
            "" + records,
            "" + recordsPerSecond,
            "" + restartDelaySeconds),
        1,
        null,
        null,
        false);
  }

  /** The id a task manager registered with, from its log. */
  static String taskManagerId(Path taskManagerLog) throws IOException {
    Matcher matcher = OFFERS.matcher(Files.readString(taskManagerLog));
    if (!matcher.find()) {
      throw new AssertionError("Task manager " + taskManagerLog + " printed no id");
    }
    return matcher.group(1);
  }

  /** Each value a {@code read_committed} reader sees in the topic, with how often. */
  static Map<String, Long> committedCounts(String bootstrapServers, String topic) {
    return KafkaTestClients.readAll(bootstrapServers, topic, "read_committed").stream()
        .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
  }

  /** {@code id-0 .. id-(records-1)}, each once. */
  static Map<String, Long> eachIdOnce(long records) {
    return LongStream.range(0, records)
        .mapToObj(i -> "id-" + i)
        .collect(Collectors.toMap(Function.identity(), id -> 1L, Long::sum, TreeMap::new));
  }
}
