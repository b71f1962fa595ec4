package io.weir.lab.nemesis;

import io.weir.lab.LabUserError;
import java.util.Locale;

/**
 * Where the nemesis lab's job writes, exactly once: the output topic through the transactional
 * Kafka sink, or PostgreSQL through the exactly-once PostgreSQL sink, its server on a host of its
 * own ({@link PostgresHost}).
 */
public enum NemesisSink {
  KAFKA,
  POSTGRES;

  /**
   * Fails with one line when the lab cannot run {@code job} on {@code deployment} into this sink:
   * PostgreSQL takes the running count (its running totals job) as one local job.
   */
  public void checkRuns(NemesisJob job, NemesisDeployment deployment) {
    if (this != POSTGRES) {
      return;
    }
    if (job != NemesisJob.RUNNING_COUNT) {
      throw new LabUserError(
          "--sink postgres: the nemesis lab writes PostgreSQL from the running count only;"
              + " add --job running-count");
    }
    if (deployment != NemesisDeployment.LOCAL_JOB) {
      throw new LabUserError("--sink postgres: the nemesis lab runs it as a local job; drop --ha");
    }
  }

  /** The name in {@code --sink}, the log and the report. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
