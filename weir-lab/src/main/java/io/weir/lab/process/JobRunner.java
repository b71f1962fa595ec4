package io.weir.lab.process;

/**
 * The main class that runs a lab job's process, given the arguments of {@code weir run}: the
 * command line (its dashboard, savepoint commands and every option of {@code weir run}), or the
 * lab's own {@link LocalJobMain} where the command line is not on the class path (a user's tests).
 */
public enum JobRunner {
  /** {@code weir run}, each process with its dashboard on a free port. */
  COMMAND_LINE("io.weir.cli.WeirCli"),
  /** The job alone in its process, with the options the crash matrix's cells use. */
  JOB_MAIN(LocalJobMain.class.getName());

  private final String mainClass;

  JobRunner(String mainClass) {
    this.mainClass = mainClass;
  }

  /** Named, not referenced: the lab does not depend on the command line. */
  public String mainClass() {
    return mainClass;
  }
}
