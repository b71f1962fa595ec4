package io.weir.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * The short run the {@code weir} launcher records the archive of the commands that answer and exit
 * from ({@code --version}, help, the job manager's queries, {@code plan}): the command line and
 * picocli, without the engine and clients that the job archive holds ({@link
 * ClassDataSharingTraining}), so that it stays small enough that mapping it costs these short JVMs
 * less than it saves. Not a user command; its exit code only decides whether the launcher keeps the
 * archive.
 */
public final class CommandLineTraining {
  /**
   * The calls whose classes every answering command needs; their output is not shown. The commands
   * are those the launcher maps this archive for (its list of commands that answer and exit, and
   * any command's help).
   */
  private static final List<List<String>> CALLS =
      List.of(
          List.of("--version"),
          List.of("--help"),
          List.of("list", "--help"),
          List.of("stop", "--help"),
          List.of("cancel", "--help"),
          List.of("savepoint", "--help"),
          List.of("checkpoints", "--help"),
          List.of("inspect", "--help"),
          List.of("plan", "--help"),
          List.of("run", "--help"),
          List.of("bench", "--help"),
          List.of("kafka", "start", "--help"));

  private CommandLineTraining() {}

  public static void main(String[] args) {
    PrintStream out = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    int exit = 0;
    try {
      for (List<String> call : CALLS) {
        exit = Math.max(exit, WeirCli.run(call.toArray(String[]::new)));
      }
    } finally {
      System.setOut(out);
    }
    System.exit(exit);
  }
}
