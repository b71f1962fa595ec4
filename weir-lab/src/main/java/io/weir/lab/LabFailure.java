package io.weir.lab;

/** A lab step that could not be carried out (a job process that died, a deadline passed). */
public final class LabFailure extends RuntimeException {
  public LabFailure(String message) {
    super(message);
  }
}
