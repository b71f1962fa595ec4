package io.weir.cluster.jobmanager;

import io.weir.runtime.checkpoint.CheckpointStats;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prints a job's checkpoint history for {@code weir checkpoints}: one line per checkpoint with its
 * status, start, duration, size and every subtask's acknowledgement time, then the retained
 * checkpoints on disk that this job manager has not seen (taken before it started).
 */
final class CheckpointHistoryLines {
  static final String HEADER = "id\tstatus\tstarted\tduration_ms\tsize_bytes\tacks_ms\tdetail";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

  private final Map<String, String> taskNames = new HashMap<>();

  CheckpointHistoryLines(JobGraph graph) {
    for (JobVertex vertex : graph.vertices()) {
      taskNames.put(vertex.id(), vertex.name());
    }
  }

  List<String> lines(List<CheckpointStats> history, List<Path> retainedNewestFirst) {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    Set<Long> seen = new HashSet<>();
    for (CheckpointStats stats : history) {
      seen.add(stats.checkpointId());
      lines.add(line(stats));
    }
    for (Path checkpoint : retainedNewestFirst) {
      long id = CheckpointLayout.checkpointIdOf(checkpoint).orElse(-1);
      if (id >= 0 && !seen.contains(id)) {
        boolean complete = Files.exists(checkpoint.resolve("_metadata"));
        lines.add(
            id + "\t" + (complete ? "RETAINED" : "INCOMPLETE") + "\t-\t-\t-\t-\t" + checkpoint);
      }
    }
    return lines;
  }

  private String line(CheckpointStats stats) {
    StringBuilder acks = new StringBuilder();
    for (CheckpointStats.Ack ack : stats.acks()) {
      if (acks.length() > 0) {
        acks.append(", ");
      }
      acks.append(taskNames.getOrDefault(ack.taskId(), ack.taskId()))
          .append('#')
          .append(ack.subtaskIndex())
          .append(' ')
          .append(ack.afterMillis());
    }
    String detail =
        stats.failure() != null ? stats.failure() : stats.savepoint() ? "savepoint" : "";
    return stats.checkpointId()
        + "\t"
        + stats.status()
        + "\t"
        + TIME.format(Instant.ofEpochMilli(stats.triggerMillis()))
        + "\t"
        + stats.durationMillis()
        + "\t"
        + stats.sizeBytes()
        + "\t"
        + (acks.length() == 0 ? "-" : acks)
        + "\t"
        + detail;
  }
}
