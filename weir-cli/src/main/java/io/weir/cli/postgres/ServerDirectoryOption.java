package io.weir.cli.postgres;

import io.weir.devservers.postgres.PostgresServerConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --dir} option shared by the {@code weir postgres} commands. */
final class ServerDirectoryOption {
  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Server directory (data, log, pid). Default: .weir/postgres")
  Path directory = Path.of(".weir", "postgres");

  PostgresServerConfig config() {
    return PostgresServerConfig.inDirectory(directory);
  }
}
