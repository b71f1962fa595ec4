package io.weir.lab.overload;

import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabProgress;
import io.weir.lab.Topics;
import io.weir.lab.process.ProcessMemory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Looks at an overloaded job once a second, on a thread of its own, and keeps what it saw: the
 * records fed so far, the consumer group's lag (the input's end offsets against the offsets the
 * group committed, which move only when a checkpoint completes), the sink's records and the age of
 * its oldest transaction, the job process's peak resident memory, the job's restarts, and every
 * checkpoint that completed or was aborted. Every few looks it prints a progress line. The soak
 * tells it which phase runs and when it restarted the job process; a restarted process counts its
 * restarts and records from zero.
 */
final class OverloadWatch implements AutoCloseable {
  private static final Duration LOOK_INTERVAL = Duration.ofSeconds(1);
  private static final int LOOKS_PER_PROGRESS_LINE = 5;

  /**
   * One look.
   *
   * @param lag records of the input the group has not committed yet, or -1 when the broker did not
   *     answer
   * @param sinkRecords records the sink took in, in the job process running at the time
   * @param transactionAgeMillis age of the sink's oldest open or pending transaction, or -1 when
   *     the job did not answer
   * @param peakResidentMebibytes the most memory the job process held at once since it started, 0
   *     when it could not be read
   */
  record Sample(
      long atMillis,
      int phase,
      int process,
      long fedRecords,
      long lag,
      long sinkRecords,
      long transactionAgeMillis,
      double peakResidentMebibytes) {}

  private final ContinuousFeed feed;
  private final Admin admin;
  private final String inputTopic;
  private final String group;
  private final JobApi api;
  private final LongSupplier jobPid;
  private final LabProgress progress;
  private final Clock clock;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread watch = new Thread(runnable, "lab-overload-watch");
            watch.setDaemon(true);
            return watch;
          });
  private final List<Sample> samples = new ArrayList<>();
  // Keyed by trigger time and id: a restored job may number its checkpoints as the old one did.
  private final Map<String, JobApi.Checkpoint> checkpoints = new LinkedHashMap<>();
  private final Map<Integer, Integer> restartsByProcess = new HashMap<>();
  private volatile int phase;
  private volatile int process = 1;

  private OverloadWatch(
      ContinuousFeed feed,
      String bootstrap,
      String inputTopic,
      String group,
      JobApi api,
      LongSupplier jobPid,
      LabProgress progress,
      Clock clock) {
    this.feed = feed;
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    this.inputTopic = inputTopic;
    this.group = group;
    this.api = api;
    this.jobPid = jobPid;
    this.progress = progress;
    this.clock = clock;
  }

  /**
   * Starts looking at once, then every second, until closed; {@code jobPid} gives the process id of
   * the job process running at the time.
   */
  static OverloadWatch start(
      ContinuousFeed feed,
      String bootstrap,
      String inputTopic,
      String group,
      JobApi api,
      LongSupplier jobPid,
      LabProgress progress,
      Clock clock) {
    OverloadWatch watch =
        new OverloadWatch(feed, bootstrap, inputTopic, group, api, jobPid, progress, clock);
    watch.thread.scheduleWithFixedDelay(
        watch::look, 0, LOOK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    return watch;
  }

  void enterPhase(int number) {
    phase = number;
  }

  /** The soak started a new job process (after a kill): its counters start from zero. */
  void processRestarted() {
    process++;
  }

  private void look() {
    try {
      long now = clock.millis();
      long lag = lag();
      long sinkRecords = -1;
      long transactionAge = -1;
      Optional<JobApi.JobFigures> figures = api.job();
      if (figures.isPresent()) {
        sinkRecords = figures.get().sinkRecords();
        long begin = figures.get().oldestTransactionBeginMillis();
        transactionAge = begin < 0 ? 0 : Math.max(0, now - begin);
        restartsByProcess.merge(process, figures.get().restarts(), Math::max);
      }
      for (JobApi.Checkpoint checkpoint : api.checkpoints()) {
        if (checkpoint.completed() || checkpoint.aborted()) {
          checkpoints.putIfAbsent(checkpoint.triggerMillis() + "/" + checkpoint.id(), checkpoint);
        }
      }
      Sample sample =
          new Sample(
              now,
              phase,
              process,
              feed.nextId(),
              lag,
              sinkRecords,
              transactionAge,
              ProcessMemory.peakResidentMebibytes(jobPid.getAsLong()));
      synchronized (samples) {
        samples.add(sample);
        if (samples.size() % LOOKS_PER_PROGRESS_LINE == 0) {
          progress.line(progressLine(sample));
        }
      }
    } catch (RuntimeException e) {
      progress.line("watch: a look failed: " + e.getMessage());
    }
  }

  private long lag() {
    try {
      return Math.max(
          0, Topics.endOffsets(admin, inputTopic) - Topics.committedOffsets(admin, group));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    } catch (Exception e) {
      return -1; // the broker did not answer this time
    }
  }

  private String progressLine(Sample sample) {
    Sample before = samples.get(Math.max(0, samples.size() - 1 - LOOKS_PER_PROGRESS_LINE));
    double seconds = Math.max(1, sample.atMillis() - before.atMillis()) / 1000.0;
    long fedPerSecond = Math.round((sample.fedRecords() - before.fedRecords()) / seconds);
    long sinkPerSecond =
        sample.process() == before.process() && before.sinkRecords() >= 0
            ? Math.round(Math.max(0, sample.sinkRecords() - before.sinkRecords()) / seconds)
            : -1;
    return String.format(
        Locale.ROOT,
        "%s: fed %d/s, sink %s/s, lag %s, oldest transaction %s, %d checkpoints seen",
        sample.phase() == 0 ? "settling" : "phase " + sample.phase(),
        fedPerSecond,
        sinkPerSecond < 0 ? "?" : Long.toString(sinkPerSecond),
        sample.lag() < 0 ? "?" : Long.toString(sample.lag()),
        sample.transactionAgeMillis() < 0
            ? "?"
            : String.format(Locale.ROOT, "%.1f s", sample.transactionAgeMillis() / 1000.0),
        checkpoints.size());
  }

  /** Whether a look in phase {@code number} found the lag at or below {@code drainedLag}. */
  boolean drainedIn(int number, long drainedLag) {
    synchronized (samples) {
      return samples.stream()
          .anyMatch(s -> s.phase() == number && s.lag() >= 0 && s.lag() <= drainedLag);
    }
  }

  /** The lag at the latest look that read it, or -1 before one did. */
  long latestLag() {
    synchronized (samples) {
      for (int i = samples.size() - 1; i >= 0; i--) {
        if (samples.get(i).lag() >= 0) {
          return samples.get(i).lag();
        }
      }
      return -1;
    }
  }

  /** What the watch saw, once it has stopped. */
  record Observations(List<Sample> samples, List<JobApi.Checkpoint> checkpoints, int restarts) {}

  /** Stops looking and returns what was seen. */
  Observations stop() throws InterruptedException {
    thread.shutdown();
    thread.awaitTermination(30, TimeUnit.SECONDS);
    admin.close();
    synchronized (samples) {
      int restarts = restartsByProcess.values().stream().mapToInt(Integer::intValue).sum();
      return new Observations(List.copyOf(samples), List.copyOf(checkpoints.values()), restarts);
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    admin.close();
  }
}
