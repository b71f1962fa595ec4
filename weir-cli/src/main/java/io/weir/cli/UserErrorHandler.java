package io.weir.cli;

import io.weir.cli.error.UserError;
import io.weir.lab.LabUserError;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Prints a failed command's cause as one line ({@code weir: ...}) and exits with 1; the stack trace
 * only with {@code --verbose} or {@code WEIR_VERBOSE=1}.
 */
final class UserErrorHandler implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception exception, CommandLine commandLine, ParseResult parseResult) {
    boolean verbose =
        "1".equals(System.getenv("WEIR_VERBOSE"))
            || parseResult.originalArgs().contains("--verbose");
    if (verbose) {
      exception.printStackTrace();
    }
    commandLine.getErr().println("weir: " + describe(exception));
    return 1;
  }

  static String describe(Throwable exception) {
    if (exception instanceof UserError || exception instanceof LabUserError) {
      return exception.getMessage();
    }
    StringBuilder message = new StringBuilder(String.valueOf(exception.getMessage()));
    Throwable cause = exception.getCause();
    while (cause != null && cause != exception) {
      if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
        message.append(": ").append(cause.getMessage());
      }
      exception = cause;
      cause = cause.getCause();
    }
    return message.toString();
  }
}
