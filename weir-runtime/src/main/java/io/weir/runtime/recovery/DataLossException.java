package io.weir.runtime.recovery;

import io.weir.api.datastream.SuppressRestartsException;

/**
 * A sink proved on recovery that a transaction of the restored checkpoint was aborted: its records
 * are lost. Restarting cannot bring them back, so the job fails at once; its message is the one
 * line a user sees.
 */
public final class DataLossException extends SuppressRestartsException {
  private static final long serialVersionUID = 1L;

  public DataLossException(String message) {
    super(message, null);
  }
}
