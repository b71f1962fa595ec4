package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.LeaseEpoch;

/**
 * A sink refused to recover, commit or abort for a run whose lease on the job's checkpoint
 * directory is older than the one its external system recorded last: a newer run of the job
 * recovered the sink since, and whatever this run still does there would undo or double the newer
 * one's output. Restarting cannot help (the newer run keeps the lease), so the job fails at once.
 */
@PublicEvolving
public class StaleLeaseEpochException extends SuppressRestartsException {
  private static final long serialVersionUID = 1L;

  public StaleLeaseEpochException(
      String jobName, String sinkName, LeaseEpoch own, LeaseEpoch newer) {
    super(
        "Sink '"
            + sinkName
            + "' of job '"
            + jobName
            + "' is fenced: this run holds "
            + own.describe()
            + ", and a newer run ("
            + newer.describe()
            + ") has recovered the sink since; stop this run",
        null);
  }
}
