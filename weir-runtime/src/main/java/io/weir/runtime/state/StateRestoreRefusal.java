package io.weir.runtime.state;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.types.TypeChangedException;

/**
 * The one-line refusals of a restore whose state's declared serializer does not fit what the
 * checkpoint holds, for keyed and operator state alike. Restarting cannot cure them, so they stop
 * the job at once.
 */
final class StateRestoreRefusal {
  private StateRestoreRefusal() {}

  static SuppressRestartsException typeChanged(
      String state, String operatorUid, TypeChangedException cause) {
    return new SuppressRestartsException(
        "Cannot restore state '"
            + state
            + "' of operator '"
            + operatorUid
            + "': "
            + cause.getMessage(),
        null);
  }

  static SuppressRestartsException declaredWithoutTypeSerializer(String state, String operatorUid) {
    return new SuppressRestartsException(
        "State '"
            + state
            + "' of operator '"
            + operatorUid
            + "' was written with a TypeSerializer; declare it with one to restore it",
        null);
  }

  static SuppressRestartsException writtenWithoutTypeSerializer(String state, String operatorUid) {
    return new SuppressRestartsException(
        "State '"
            + state
            + "' of operator '"
            + operatorUid
            + "' was written without a TypeSerializer; keep its serializer or give the state a"
            + " new name",
        null);
  }
}
