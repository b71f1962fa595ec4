package io.weir.lab.crash;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.lab.CellTopics;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.process.LabBroker;
import io.weir.lab.process.LabJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The failure matrix: every commit order, crash point and recovery, each cell on a fresh broker of
 * its own with the seed's topic names, or, with {@code reuseBroker}, on one shared broker with
 * fresh topic names, group and transactional ids per cell. A cell that cannot be measured is
 * reported as failed; the others still run.
 */
public final class MatrixRun {
  private final LabJob job;
  private final LabSettings settings;
  private final boolean reuseBroker;
  private final LabProgress progress;

  public MatrixRun(LabJob job, LabSettings settings, boolean reuseBroker, LabProgress progress) {
    this.job = job;
    this.settings = settings;
    this.reuseBroker = reuseBroker;
    this.progress = progress;
  }

  public List<CellResult> run(Path directory, CellTopics names) throws Exception {
    return run(directory, names, List.of(CrashPoint.values()), List.of(Recovery.values()));
  }

  /** Only the cells of these crash points and recoveries, in this order. */
  public List<CellResult> run(
      Path directory, CellTopics names, List<CrashPoint> crashes, List<Recovery> recoveries)
      throws Exception {
    List<CellResult> results = new ArrayList<>();
    KafkaBroker shared = reuseBroker ? startBroker(directory.resolve("kafka")) : null;
    try {
      int total = crashes.size() * recoveries.size();
      for (CrashPoint crash : crashes) {
        for (Recovery recovery : recoveries) {
          int index = results.size() + 1;
          progress.line(
              String.format(
                  "[%d/%d] %s / %s / %s",
                  index, total, crash.order().label(), crash.label(), recovery.label()));
          Path cellDirectory = directory.resolve("cell-" + index);
          // A job writing to a database shares it between cells: its tables are named per cell.
          boolean distinct = reuseBroker || job.writesToPostgres();
          CellTopics topics = distinct ? names.suffixed("cell" + index) : names;
          results.add(runCell(shared, cellDirectory, topics, crash, recovery));
        }
      }
    } finally {
      if (shared != null) {
        shared.close();
      }
    }
    return results;
  }

  private CellResult runCell(
      KafkaBroker shared, Path directory, CellTopics topics, CrashPoint crash, Recovery recovery)
      throws Exception {
    CellRun cell = new CellRun(job, settings, progress);
    try {
      if (shared != null) {
        return cell.run(shared.bootstrapServers(), topics, crash, recovery, directory);
      }
      try (KafkaBroker broker = startBroker(directory.resolve("kafka"))) {
        return cell.run(broker.bootstrapServers(), topics, crash, recovery, directory);
      }
    } catch (LabFailure e) {
      progress.line("  cell failed: " + e.getMessage());
      return new CellResult(crash, recovery, Outcome.failed(e.getMessage()), -1, null, null);
    }
  }

  private KafkaBroker startBroker(Path directory) {
    progress.line("starting a Kafka broker in " + directory);
    return KafkaBroker.start(LabBroker.config(directory));
  }
}
