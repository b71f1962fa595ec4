package io.weir.testing;

import io.weir.api.checkpoint.CommitObserver;

/**
 * The mode that snapshots and restores the operator after every input and checks that its output
 * stays what it would have been without: the harness runs a reference copy of the operator that is
 * never restored beside the one the test reads, feeds both the same inputs, and compares everything
 * both emitted after each input. A difference means some of the operator's behaviour lives outside
 * its checkpointed state (a field not in state, a timer not registered, a counter in a static),
 * which a failover would lose.
 *
 * <p>Within one input the order of the records is not compared (timers of several keys due at the
 * same time fire in an order the runtime does not promise); what each input emitted is.
 *
 * <p>What does not survive a real restore does not survive this one either: the current watermark
 * starts again at {@link Long#MIN_VALUE} until the next watermark arrives.
 */
final class EveryInputRestoreCheck {
  private final EmittedRecords referenceOutput = new EmittedRecords();
  private final OperatorRun reference;
  private int inputs;

  EveryInputRestoreCheck(OperatorUnderTest operator, ManualClock clock, int parallelism)
      throws Exception {
    this.reference =
        new OperatorRun(
            operator, clock, referenceOutput, parallelism, null, 0, CommitObserver.NONE);
  }

  /** The copy that is never restored; it gets every input the checked one gets. */
  OperatorRun reference() {
    return reference;
  }

  /**
   * Snapshots {@code run}, closes it, restores a new run from the snapshot and compares the output.
   *
   * @param input the input just processed, for the failure message
   * @return the restored run, which replaces {@code run}
   * @throws AssertionError when the outputs differ
   */
  OperatorRun restoreAndCompare(
      OperatorRun run,
      ManualClock clock,
      EmittedRecords output,
      long checkpointId,
      int attempt,
      String input)
      throws Exception {
    inputs++;
    int parallelism = run.parallelism();
    OperatorSnapshot snapshot = run.snapshot(checkpointId, clock.now());
    run.close();
    OperatorRun restored =
        new OperatorRun(
            run.operator(), clock, output, parallelism, snapshot, attempt, CommitObserver.NONE);
    if (!output.sameAs(referenceOutput)) {
      throw new AssertionError(
          "With a snapshot and restore after every input, the output differs after input "
              + inputs
              + " ("
              + input
              + ").\nwithout restores: "
              + referenceOutput
              + "\nwith restores:    "
              + output);
    }
    return restored;
  }

  void clearReferenceOutput() {
    referenceOutput.clear();
  }

  void close() throws Exception {
    reference.close();
  }
}
