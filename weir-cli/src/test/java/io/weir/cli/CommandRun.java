package io.weir.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code weir} command run as the command line runs it, with what it printed on standard output
 * and standard error: in this JVM (both streams restored afterwards, however the command ends), or
 * in a JVM of its own, for commands that run beside each other.
 */
public record CommandRun(int exitCode, String out, String err) {
  public static CommandRun weir(String... arguments) {
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int exitCode = WeirCli.run(arguments);
      return new CommandRun(
          exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
  }

  /**
   * Runs the command in a child JVM on this JVM's class path, its output kept in {@code directory};
   * waits for it to end.
   */
  public static CommandRun weirInChildJvm(Path directory, String... arguments)
      throws IOException, InterruptedException {
    Files.createDirectories(directory);
    Path out = directory.resolve("weir.out");
    Path err = directory.resolve("weir.err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(WeirCli.class.getName());
    command.addAll(List.of(arguments));
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      int exitCode = process.waitFor();
      return new CommandRun(exitCode, Files.readString(out), Files.readString(err));
    } finally {
      // Interrupted (a test's timeout): the lab's own shutdown cleans up what it started.
      process.destroy();
    }
  }
}
