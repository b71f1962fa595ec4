package io.weir.lab.nemesis;

import io.weir.lab.LabUserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code ip} (iproute2) and fails with its own one-line message when it does. */
final class IpCommand {
  private static final long TIMEOUT_SECONDS = 30;

  private IpCommand() {}

  /** Runs {@code ip <arguments>} and returns what it printed; throws when it fails. */
  static String run(String... arguments) {
    Result result = attempt(arguments);
    if (result.exit() != 0) {
      throw new LabUserError(
          "ip " + String.join(" ", arguments) + " failed: " + result.output().strip());
    }
    return result.output();
  }

  /** Runs {@code ip <arguments>}; a failure is returned, not thrown (for idempotent tear-down). */
  static Result attempt(String... arguments) {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(arguments));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return new Result(-1, "timed out");
      }
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new LabUserError("the nemesis lab needs iproute2's ip command: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, "interrupted");
    }
  }

  /** How {@code ip} ended. */
  record Result(int exit, String output) {}
}
