package io.weir.runtime.sink.twophase;

import io.weir.api.sink.TwoPhaseCommitEngine;
import io.weir.api.sink.TwoPhaseCommitHooks;

/**
 * The runtime's engine for every {@code TwoPhaseCommitSinkFunction}, found by the sink with {@link
 * java.util.ServiceLoader} (registered in {@code META-INF/services}). Keeps no state.
 */
public final class TwoPhaseCommitEngines implements TwoPhaseCommitEngine.Factory {
  @Override
  public <IN, TXN, CONTEXT> TwoPhaseCommitEngine<IN, TXN, CONTEXT> create(
      TwoPhaseCommitHooks<IN, TXN, CONTEXT> sink) {
    return new TwoPhaseCommitProtocol<>(sink);
  }
}
