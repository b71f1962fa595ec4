package io.weir.runtime.exchange;

/** The task's input could not be delivered to it: its records would be lost, so the task fails. */
public final class UndeliverableInputException extends RuntimeException {
  UndeliverableInputException(Exception cause) {
    super("Input could not be delivered: " + cause.getMessage(), cause);
  }
}
