package io.weir.api.datastream;

import io.weir.api.annotation.Public;

/** The job failed; the message names the operator, the subtask and the cause. */
@Public
public class JobExecutionException extends Exception {
  public JobExecutionException(String message, Throwable cause) {
    super(message, cause);
  }

  public JobExecutionException(String message) {
    super(message);
  }
}
