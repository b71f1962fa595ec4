package io.weir.lab;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits until a running job has caught up with its input: the consumer group committed offsets up
 * to the end of the input topic (so a checkpoint covering every input record completed) and the
 * committed output stopped growing between two looks a checkpoint interval or more apart (so the
 * sink's commit of that checkpoint is visible too, whichever of the two commits went first).
 */
final class OutputSettling {
  private static final long LOOK_INTERVAL_MILLIS = 1500;

  private OutputSettling() {}

  static void await(JobProcess job, String bootstrap, CellTopics topics, Duration timeout)
      throws Exception {
    await(job, new OutputVerifier(bootstrap, topics.output()), bootstrap, topics, timeout);
  }

  /** As above, with the job's output read from {@code output}. */
  static void await(
      JobProcess job, JobOutput output, String bootstrap, CellTopics topics, Duration timeout)
      throws Exception {
    await(job::isAlive, job.log(), output, bootstrap, topics, timeout);
  }

  /**
   * As above, for a job anywhere (on a cluster): {@code running} says whether it still runs, and
   * {@code log} is where to look when it does not.
   */
  static void await(
      BooleanSupplier running,
      Path log,
      JobOutput output,
      String bootstrap,
      CellTopics topics,
      Duration timeout)
      throws Exception {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    long previousCount = -1;
    while (System.currentTimeMillis() < deadline) {
      if (!running.getAsBoolean()) {
        throw new LabFailure("the job ended before its output settled; see " + log);
      }
      long input = Topics.endOffsets(bootstrap, topics.input());
      long committed = Topics.committedOffsets(bootstrap, topics.group());
      if (committed >= input) {
        long count = output.read(true).records();
        if (count == previousCount) {
          return;
        }
        previousCount = count;
      } else {
        previousCount = -1;
      }
      // Polling a broker-side state: nothing notifies the lab when a checkpoint is committed.
      Thread.sleep(LOOK_INTERVAL_MILLIS);
    }
    throw new LabFailure(
        "group "
            + topics.group()
            + " did not commit offsets up to the end of topic '"
            + topics.input()
            + "' within "
            + timeout.toSeconds()
            + " s; see "
            + log);
  }
}
