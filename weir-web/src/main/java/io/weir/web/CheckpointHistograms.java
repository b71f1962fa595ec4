package io.weir.web;

import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.weir.runtime.monitor.CheckpointTimeline;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.JobOverview;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Histograms of checkpoint duration and size, barrier alignment and sink commit latency (from the
 * checkpoint's {@code _metadata} to the end of the sink's commit). Each completed checkpoint is
 * observed once, on the first scrape that sees it with every notification done (a job keeps its
 * recent checkpoints, so one completed between two scrapes is not missed).
 */
final class CheckpointHistograms {
  private static final int REMEMBERED = 4096;

  private final JobMonitor monitor;
  private final Histogram duration;
  private final Histogram size;
  private final Histogram alignment;
  private final Histogram commitLatency;
  private final Set<String> observed = new LinkedHashSet<>();

  CheckpointHistograms(JobMonitor monitor, PrometheusRegistry registry) {
    this.monitor = monitor;
    this.duration =
        Histogram.builder()
            .name("weir_checkpoint_duration_seconds")
            .help("Trigger to completion of a checkpoint.")
            .unit(Unit.SECONDS)
            .classicOnly()
            .classicUpperBounds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
            .labelNames("job_name")
            .register(registry);
    this.size =
        Histogram.builder()
            .name("weir_checkpoint_size_bytes")
            .help("State written by a checkpoint.")
            .unit(Unit.BYTES)
            .classicOnly()
            .classicUpperBounds(1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9)
            .labelNames("job_name")
            .register(registry);
    this.alignment =
        Histogram.builder()
            .name("weir_checkpoint_alignment_seconds")
            .help("First to last barrier of a checkpoint at a subtask.")
            .unit(Unit.SECONDS)
            .classicOnly()
            .classicUpperBounds(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10)
            .labelNames("job_name", "task")
            .register(registry);
    this.commitLatency =
        Histogram.builder()
            .name("weir_sink_commit_latency_seconds")
            .help("A checkpoint's _metadata stored to the end of a sink subtask's commit.")
            .unit(Unit.SECONDS)
            .classicOnly()
            .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
            .labelNames("job_name", "operator")
            .register(registry);
  }

  /** Observes the checkpoints completed since the last call. */
  synchronized void observeNew() {
    for (JobOverview job : monitor.jobs()) {
      List<CheckpointTimeline> checkpoints = monitor.checkpoints(job.id()).orElse(List.of());
      for (CheckpointTimeline checkpoint : checkpoints) {
        if (checkpoint.status().equals("COMPLETED")
            && notificationsDone(checkpoint)
            && remember(job.id() + "/" + checkpoint.id())) {
          observe(job.name(), checkpoint);
        }
      }
    }
  }

  private void observe(String job, CheckpointTimeline checkpoint) {
    duration.labelValues(job).observe(checkpoint.durationMillis() / 1000.0);
    size.labelValues(job).observe(checkpoint.sizeBytes());
    for (CheckpointTimeline.SubtaskStep step : checkpoint.subtasks()) {
      alignment.labelValues(job, step.taskName()).observe(step.alignmentMillis() / 1000.0);
      for (CheckpointTimeline.NotificationStep notification : step.notifications()) {
        if (notification.sink() && checkpoint.metadataMillis() > 0) {
          commitLatency
              .labelValues(job, notification.operatorName())
              .observe(
                  Math.max(0, notification.endMillis() - checkpoint.metadataMillis()) / 1000.0);
        }
      }
    }
  }

  /**
   * Every subtask handled its notification; where the job manager has no subtask traces (they are
   * kept in the subtask's process), once the notifications were sent.
   */
  private static boolean notificationsDone(CheckpointTimeline checkpoint) {
    List<CheckpointTimeline.SubtaskStep> steps = checkpoint.subtasks();
    boolean traced = steps.stream().anyMatch(step -> step.barrierMillis() > 0);
    return traced
        ? steps.stream().noneMatch(step -> step.notifications().isEmpty())
        : checkpoint.notifiedMillis() > 0;
  }

  private boolean remember(String key) {
    if (!observed.add(key)) {
      return false;
    }
    if (observed.size() > REMEMBERED) {
      observed.remove(observed.iterator().next());
    }
    return true;
  }
}
