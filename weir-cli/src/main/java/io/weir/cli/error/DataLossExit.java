package io.weir.cli.error;

import java.util.List;

/**
 * A job that went on past proven data loss ({@code --accept-data-loss}) still lost records, so its
 * run must not end with exit code 0: the lines of what was lost are repeated at the end.
 */
public final class DataLossExit {
  private DataLossExit() {}

  /** Throws a user error naming what was lost when {@code acceptedDataLoss} is not empty. */
  public static void failIfLost(String jobName, List<String> acceptedDataLoss) {
    if (acceptedDataLoss.isEmpty()) {
      return;
    }
    throw new UserError(
        "Job '"
            + jobName
            + "' finished without the records of "
            + acceptedDataLoss.size()
            + " aborted transaction(s), as --accept-data-loss allowed: "
            + String.join("; ", acceptedDataLoss));
  }
}
