package io.weir.lab.process;

import io.weir.api.checkpoint.NotifyOrder;
import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutor;
import io.weir.lab.LabUserError;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Runs one job in this process as {@code weir run} runs it locally, for the crash matrix's job
 * processes where the command line is not on the class path. Takes the {@code weir run} options the
 * matrix's cells use: {@code --checkpoint-dir DIR}, {@code --notify-order ORDER}, one of {@code
 * --fresh}, {@code --from-group-offsets}, {@code -s PATH}, then {@code [-c CLASS] JOB [ARGS]} (a
 * class, or a jar). Failpoints armed for the process apply as in {@code weir run}. Exits 0 when the
 * job finished, else 1 after one line ({@code weir: ...}) on standard error.
 */
public final class LocalJobMain {
  private LocalJobMain() {}

  public static void main(String[] args) {
    try {
      run(List.of(args));
    } catch (Exception e) {
      System.err.println("weir: " + e.getMessage());
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(List<String> args) throws Exception {
    Overrides overrides = new Overrides();
    String jobClass = null;
    int index = 0;
    while (index < args.size() && args.get(index).startsWith("-")) {
      String option = args.get(index);
      switch (option) {
        case "--fresh", "--from-group-offsets" -> overrides.fresh = true;
        case "--checkpoint-dir" -> overrides.checkpoints = Path.of(value(args, index++));
        case "--notify-order" -> overrides.order = NotifyOrder.valueOf(value(args, index++));
        case "-s" -> overrides.restorePath = Path.of(value(args, index++));
        case "-c" -> jobClass = value(args, index++);
        default -> throw new LabUserError("Unknown option: '" + option + "'");
      }
      index++;
    }
    if (index >= args.size()) {
      throw new LabUserError("No job class or jar given");
    }
    String job = args.get(index);
    String[] jobArguments = args.subList(index + 1, args.size()).toArray(String[]::new);
    JobExecutor executor = plan -> new LocalJobExecutor(new LocalJobs()).execute(plan);
    JobLauncher.launch(job, jobClass, jobArguments, executor, overrides::applyTo);
  }

  private static String value(List<String> args, int index) {
    if (index + 1 >= args.size()) {
      throw new LabUserError("Option " + args.get(index) + " needs a value");
    }
    return args.get(index + 1);
  }

  /** The options given, applied over the job's own settings as {@code weir run} applies them. */
  private static final class Overrides {
    private Path checkpoints;
    private NotifyOrder order;
    private Path restorePath;
    private boolean fresh;

    void applyTo(JobConfig config) {
      if (checkpoints != null) {
        config.checkpointDirectory(checkpoints);
      }
      if (order != null) {
        config.notifyOrder(order);
      }
      config.restorePath(restorePath);
      config.fresh(fresh);
      config.progressInterval(Duration.ofSeconds(2));
    }
  }
}
