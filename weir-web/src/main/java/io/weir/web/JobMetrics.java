package io.weir.web;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.weir.runtime.monitor.InputChannelView;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.JobOverview;
import io.weir.runtime.monitor.KafkaStatus;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counters and gauges of every job, read from the monitor at each scrape: records in and out
 * per operator, time blocked on output, what each input channel holds in flight and its credit,
 * restarts, dead letters, Kafka transactions and source lag, and the gauges operators' functions
 * added (the Kafka connectors': their clients' figures), each as {@code weir_operator_<name>}.
 * Checkpoint durations, sizes, alignments and commit latencies are histograms kept by {@link
 * CheckpointHistograms}.
 */
final class JobMetrics implements MultiCollector {
  private final JobMonitor monitor;
  private final KafkaStatusCache kafka;

  JobMetrics(JobMonitor monitor, KafkaStatusCache kafka) {
    this.monitor = monitor;
    this.kafka = kafka;
  }

  @Override
  public MetricSnapshots collect() {
    Counters recordsIn = new Counters("weir_operator_records_in", "Records into an operator.");
    Counters recordsOut = new Counters("weir_operator_records_out", "Records out of an operator.");
    Counters blocked =
        new Counters(
            "weir_subtask_backpressured_seconds",
            "Time a subtask waited for room downstream (backpressure).");
    Counters restarts = new Counters("weir_job_restarts", "Restarts of a job after failures.");
    Counters deadLetters =
        new Counters(
            "weir_dead_letter_records",
            "Records a job's sources sent to a dead-letter topic in its current attempt.");
    Gauges transactions =
        new Gauges(
            "weir_kafka_transactions",
            "A Kafka sink's transactions: open (taking records) or pending (pre-committed, awaiting"
                + " their checkpoint's notification).");
    Gauges lag =
        new Gauges("weir_kafka_source_lag_records", "Records a source partition has left to read.");
    Gauges inFlightRecords =
        new Gauges(
            "weir_channel_in_flight_records",
            "Records queued in a subtask's input gate from one upstream subtask (its channel).");
    Gauges inFlightBytes =
        new Gauges(
            "weir_channel_in_flight_bytes",
            "Bytes of the records queued on an input channel, estimated from a recently encoded"
                + " record.");
    Gauges credit =
        new Gauges(
            "weir_channel_credit_records",
            "Records the sender of an input channel may put in one batch (adapts to throughput).");
    // By name: every operator that added a gauge of one name shows in one metric.
    Map<String, Gauges> operatorGauges = new TreeMap<>();
    for (JobOverview overview : monitor.jobs()) {
      JobDetail job = monitor.job(overview.id()).orElse(null);
      if (job == null) {
        continue;
      }
      restarts.add(job.restarts(), "job_name", job.name(), "job_id", job.id());
      deadLetters.add(job.deadLetterRecords(), "job_name", job.name(), "job_id", job.id());
      for (TaskView task : job.tasks()) {
        for (SubtaskView subtask : task.subtasks()) {
          String index = Integer.toString(subtask.index());
          blocked.add(
              subtask.blockedOnOutputMillis() / 1000.0,
              "job_name",
              job.name(),
              "job_id",
              job.id(),
              "task",
              task.name(),
              "subtask",
              index);
          addChannels(job, task, subtask, inFlightRecords, inFlightBytes, credit);
          for (int i = 0; i < subtask.operators().size(); i++) {
            SubtaskView.OperatorCounts counts = subtask.operators().get(i);
            TaskView.OperatorView operator = task.operators().get(i);
            String[] labels = labels(job, operator, index);
            recordsIn.add(counts.recordsIn(), labels);
            recordsOut.add(counts.recordsOut(), labels);
            counts
                .gauges()
                .forEach((name, value) -> gauge(operatorGauges, name).add(value, labels));
          }
        }
      }
      if (job.status().equals("RUNNING")) {
        monitor
            .graph(job.id())
            .map(graph -> kafka.statusOf(job.id(), graph))
            .ifPresent(status -> addKafka(job, status, transactions, lag));
      }
    }
    List<MetricSnapshot> snapshots = new ArrayList<>();
    snapshots.add(recordsIn.build());
    snapshots.add(recordsOut.build());
    snapshots.add(blocked.build(Unit.SECONDS));
    snapshots.add(restarts.build());
    snapshots.add(deadLetters.build());
    snapshots.add(transactions.build());
    snapshots.add(lag.build());
    snapshots.add(inFlightRecords.build());
    snapshots.add(inFlightBytes.build());
    snapshots.add(credit.build());
    operatorGauges.values().forEach(gauges -> snapshots.add(gauges.build()));
    return new MetricSnapshots(snapshots);
  }

  private static void addChannels(
      JobDetail job,
      TaskView task,
      SubtaskView subtask,
      Gauges records,
      Gauges bytes,
      Gauges credit) {
    for (InputChannelView channel : subtask.inputChannels()) {
      String[] labels = {
        "job_name", job.name(),
        "job_id", job.id(),
        "task", task.name(),
        "subtask", Integer.toString(subtask.index()),
        "channel", Integer.toString(channel.channel())
      };
      records.add(channel.queuedRecords(), labels);
      if (channel.queuedBytes() >= 0) {
        bytes.add(channel.queuedBytes(), labels);
      }
      credit.add(channel.creditRecords(), labels);
    }
  }

  private static void addKafka(JobDetail job, KafkaStatus status, Gauges transactions, Gauges lag) {
    for (KafkaStatus.SinkTransactions sink : status.sinks()) {
      KafkaSinkSubtasks.countByStage(job, sink)
          .forEach(
              (stage, count) ->
                  transactions.add(
                      count,
                      "job_name",
                      job.name(),
                      "job_id",
                      job.id(),
                      "operator",
                      sink.operatorName(),
                      "state",
                      stage.name().toLowerCase(java.util.Locale.ROOT)));
    }
    for (KafkaStatus.SourcePartition partition : status.partitions()) {
      lag.add(
          Math.max(0, partition.lag()),
          "job_name",
          job.name(),
          "job_id",
          job.id(),
          "topic",
          partition.topic(),
          "partition",
          Integer.toString(partition.partition()));
    }
  }

  /** The metric of the operators' gauges named {@code name}, made on its first data point. */
  private static Gauges gauge(Map<String, Gauges> byName, String name) {
    return byName.computeIfAbsent(
        name,
        n ->
            new Gauges("weir_operator_" + n, "A gauge the operator's function added (" + n + ")."));
  }

  /** The operator's uid too: two operators of a job may have the same name. */
  private static String[] labels(JobDetail job, TaskView.OperatorView operator, String subtask) {
    return new String[] {
      "job_name", job.name(),
      "job_id", job.id(),
      "operator", operator.name(),
      "operator_uid", operator.uid(),
      "subtask", subtask
    };
  }

  /** Data points of one counter, added label by label. */
  private static final class Counters {
    private final String name;
    private final String help;
    private final List<CounterDataPointSnapshot> points = new ArrayList<>();

    Counters(String name, String help) {
      this.name = name;
      this.help = help;
    }

    void add(double value, String... labels) {
      points.add(CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build());
    }

    CounterSnapshot build() {
      return build(null);
    }

    CounterSnapshot build(Unit unit) {
      CounterSnapshot.Builder builder = CounterSnapshot.builder().name(name).help(help);
      if (unit != null) {
        builder.unit(unit);
      }
      points.forEach(builder::dataPoint);
      return builder.build();
    }
  }

  /** Data points of one gauge, added label by label. */
  private static final class Gauges {
    private final String name;
    private final String help;
    private final List<GaugeDataPointSnapshot> points = new ArrayList<>();

    Gauges(String name, String help) {
      this.name = name;
      this.help = help;
    }

    void add(double value, String... labels) {
      points.add(GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build());
    }

    GaugeSnapshot build() {
      GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help);
      points.forEach(builder::dataPoint);
      return builder.build();
    }
  }
}
