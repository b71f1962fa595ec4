package io.weir.lab.crash;

/**
 * Says why a measured cell differs from the seed's report: which transaction or offset made the
 * difference. The reasoning follows the protocol: a checkpoint {@code N} holds the source's offsets
 * and the sink's pending transaction {@code N}; the group holds whatever offsets the source
 * committed last; the seed's restart without state aborted every lingering transaction of the sink,
 * Weir's commits those its newest checkpoint records and starts past them.
 */
final class Explanations {
  private Explanations() {}

  static String explain(CellResult result) {
    Outcome outcome = result.outcome();
    if (outcome.failure() != null) {
      return "could not be measured: " + outcome.failure();
    }
    String transaction = "transaction " + checkpoint(result);
    if (result.recovery() == Recovery.CHECKPOINT) {
      if (outcome.exactlyOnce()) {
        return "Weir's restore from checkpoint "
            + checkpoint(result)
            + " committed the sink's pending "
            + transaction
            + " recorded in it (recoverAndCommit); the seed's system lost that transaction while"
            + " the restored offsets counted its records as read";
      }
      if (outcome.hasLoss()) {
        return "the restored offsets count the records of "
            + transaction
            + " as read, but the restore could not commit it (aborted by the broker's"
            + " transaction timeout?); see the job's log";
      }
      return "records were written again after the restored offsets: a transaction newer than"
          + " checkpoint "
          + checkpoint(result)
          + " had been committed before the crash";
    }
    if (outcome.exactlyOnce()) {
      return "Weir's start from the group's offsets (group offsets "
          + result.monitors().groupOffsets()
          + ") was reconciled with checkpoint "
          + checkpoint(result)
          + ": it committed the sink's pending transactions recorded there and started each"
          + " partition at the later of the group's offset and the checkpoint's; the seed's system"
          + " started at the group's offsets and aborted them as lingering";
    }
    if (outcome.hasLoss()) {
      return "a fresh start aborted the sink's pending "
          + transaction
          + " whose offsets the group had already committed (group offsets "
          + result.monitors().groupOffsets()
          + "), so its records were never read again";
    }
    return "the sink had committed "
        + transaction
        + " while the group still held older offsets (group offsets "
        + result.monitors().groupOffsets()
        + "), so the records between them were read and written again";
  }

  private static String checkpoint(CellResult result) {
    return result.checkpointId() < 0 ? "N" : String.valueOf(result.checkpointId());
  }
}
