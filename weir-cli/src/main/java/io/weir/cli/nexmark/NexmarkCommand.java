package io.weir.cli.nexmark;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weir nexmark}: the Nexmark benchmark's events and queries. */
@Command(
    name = "nexmark",
    description = "Generate Nexmark auction events and check Nexmark queries against SQL.",
    mixinStandardHelpOptions = true,
    subcommands = {NexmarkGenerateCommand.class, NexmarkCheckCommand.class})
public final class NexmarkCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    new CommandLine(spec).usage(spec.commandLine().getOut());
  }
}
