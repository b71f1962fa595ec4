package io.weir.cli.nexmark;

import io.weir.cli.error.UserError;
import io.weir.nexmark.oracle.CheckResult;
import io.weir.nexmark.oracle.QueryCheck;
import io.weir.nexmark.queries.NexmarkQueries;
import io.weir.nexmark.queries.NexmarkQuery;
import io.weir.runtime.checkpoint.storage.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weir nexmark check}: runs a query in this process on generated events, exactly once into
 * files, and compares its complete output with the same query in SQL; exit 1 when they differ.
 */
@Command(
    name = "check",
    description = "Run a Nexmark query on generated events and compare its output with SQL.")
final class NexmarkCheckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin GeneratorOptions generator;

  @Option(names = "--query", required = true, paramLabel = "qN", description = "The query.")
  String queryName;

  @Option(
      names = "--parallelism",
      paramLabel = "P",
      description = "Subtasks of each operator. Default: 2")
  int parallelism = 2;

  @Override
  public Integer call() throws Exception {
    NexmarkQuery<?> query =
        NexmarkQueries.named(queryName)
            .orElseThrow(
                () ->
                    new UserError(
                        "--query "
                            + queryName
                            + " is not a Nexmark query; these are: "
                            + NexmarkQueries.names()));
    if (parallelism < 1) {
      throw new UserError("--parallelism must be at least 1, not " + parallelism);
    }
    Path work = Files.createTempDirectory("weir-nexmark-check-");
    try {
      CheckResult result =
          QueryCheck.runInProcess(query, generator.config(), generator.events, parallelism, work);
      spec.commandLine().getOut().println(result.line());
      spec.commandLine().getOut().flush();
      return result.matches() ? 0 : 1;
    } finally {
      Directories.deleteRecursively(work);
    }
  }
}
