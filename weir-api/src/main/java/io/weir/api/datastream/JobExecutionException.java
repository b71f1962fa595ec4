package io.weir.api.datastream;

/** The job failed; the message names the operator, the subtask and the cause. */
public class JobExecutionException extends Exception {
  public JobExecutionException(String message, Throwable cause) {
    super(message, cause);
  }

  public JobExecutionException(String message) {
    super(message);
  }
}
