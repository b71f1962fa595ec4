package io.weir.postgres.sink;

/**
 * A prepared transaction of a completed checkpoint is gone from the server and its commit record is
 * absent: someone rolled it back (by hand, or a restore of the database). Its records are lost.
 */
public final class PreparedTransactionLostException extends Exception {
  private static final long serialVersionUID = 1L;

  public PreparedTransactionLostException(String message) {
    super(message);
  }
}
