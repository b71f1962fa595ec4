package io.weir.lab.process;

import io.weir.lab.CellTopics;
import io.weir.lab.JobOutput;
import io.weir.lab.LabFailure;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Polling;
import io.weir.lab.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Waits until a running job has caught up with its input: the consumer group committed offsets up
 * to the end of the input topic (so a checkpoint covering every input record completed) and the
 * committed output stopped growing between two looks a checkpoint interval or more apart (so the
 * sink's commit of that checkpoint is visible too, whichever of the two commits went first).
 */
public final class OutputSettling {
  private static final long LOOK_INTERVAL_MILLIS = 1500;

  private OutputSettling() {}

  /**
   * For the demos: waits until every one of {@code records} input ids is in the committed output
   * (telling {@code progress} the committed count on every look), then until the output settled as
   * above, and returns the verdict read after that, so a late duplicate is counted. Loss at the
   * timeout is returned as the verdict; a job that ends or never settles is a {@link LabUserError}.
   */
  public static OutputVerifier.Verdict awaitAll(
      JobProcess job,
      JobOutput output,
      long records,
      String bootstrap,
      CellTopics topics,
      Duration timeout,
      LongConsumer progress)
      throws Exception {
    long deadline = System.currentTimeMillis() + timeout.toMillis();
    AtomicReference<OutputVerifier.Verdict> last = new AtomicReference<>();
    try {
      Polling.until(
          timeout,
          Duration.ofMillis(LOOK_INTERVAL_MILLIS),
          () -> {
            OutputVerifier.Verdict verdict = output.read(true).verify(0, records);
            last.set(verdict);
            if (verdict.lost() == 0) {
              return Optional.of(verdict);
            }
            if (!job.isAlive()) {
              throw new LabUserError("The restarted job process died; see " + job.log());
            }
            progress.accept(verdict.out());
            return Optional.empty();
          },
          () -> new LabFailure("records still missing at the timeout"));
    } catch (LabFailure stillMissing) {
      return last.get(); // the loss is the verdict
    }
    try {
      await(
          job,
          output,
          bootstrap,
          topics,
          Duration.ofMillis(
              Math.max(0, deadline - System.currentTimeMillis()) + LOOK_INTERVAL_MILLIS * 4));
    } catch (LabFailure e) {
      throw new LabUserError(e.getMessage());
    }
    return output.read(true).verify(0, records);
  }

  public static void await(JobProcess job, String bootstrap, CellTopics topics, Duration timeout)
      throws Exception {
    await(job, new OutputVerifier(bootstrap, topics.output()), bootstrap, topics, timeout);
  }

  /** As above, with the job's output read from {@code output}. */
  public static void await(
      JobProcess job, JobOutput output, String bootstrap, CellTopics topics, Duration timeout)
      throws Exception {
    await(job::isAlive, job.log(), output, bootstrap, topics, timeout);
  }

  /**
   * As above, for a job anywhere (on a cluster): {@code running} says whether it still runs, and
   * {@code log} is where to look when it does not.
   */
  /** As above, for a job that may be restarted: {@code running} says whether one runs now. */
  public static void await(
      BooleanSupplier running, Path log, String bootstrap, CellTopics topics, Duration timeout)
      throws Exception {
    await(running, log, new OutputVerifier(bootstrap, topics.output()), bootstrap, topics, timeout);
  }

  public static void await(
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
