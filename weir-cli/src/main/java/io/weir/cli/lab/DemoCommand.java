package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.lab.demo.KafkaDemo;
import io.weir.lab.demo.PostgresDemo;
import io.weir.web.WebServerOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weir demo}: the seed's experiment in one command (see {@link KafkaDemo}), or with {@code
 * --sink postgres} the running totals into PostgreSQL (see {@link PostgresDemo}).
 */
@Command(
    name = "demo",
    description = "Run the seed job on an embedded broker, kill it mid-commit, restart it, verify.")
public final class DemoCommand implements Callable<Integer> {
  @Option(names = "--records", description = "Input records (default: ${DEFAULT-VALUE}).")
  long records = 100_000;

  @Option(names = "--chained", description = "Run the one-task plan (no keyBy).")
  boolean chained;

  @Option(names = "--dir", description = "Working directory (default: ${DEFAULT-VALUE}).")
  Path directory = Path.of(".weir", "demo");

  @Option(names = "--failpoint", description = "Where the job halts (default: ${DEFAULT-VALUE}).")
  String failpoint = "sink.commit.after=halt@3";

  @Option(
      names = "--web-port",
      paramLabel = "PORT",
      description =
          "Port of the job processes' dashboard (default: ${DEFAULT-VALUE}; 0: any free port).")
  int webPort = WebServerOptions.DEFAULT_PORT;

  @Option(
      names = "--keep",
      description = "Leave the restarted job, its dashboard and the broker up until Ctrl-C.")
  boolean keep;

  @Option(
      names = "--sink",
      description =
          "kafka: the seed job into topic bar; postgres: a running aggregate per word into"
              + " PostgreSQL (default: ${DEFAULT-VALUE}).")
  DemoSink sink = DemoSink.KAFKA;

  /** Where the demo's job writes. */
  enum DemoSink {
    KAFKA,
    POSTGRES
  }

  @Override
  public Integer call() throws Exception {
    if (records < 1) {
      throw new UserError("--records must be at least 1, got " + records);
    }
    KafkaDemo.recreate(directory);
    if (sink == DemoSink.POSTGRES) {
      return new PostgresDemo(records, directory, failpoint).run();
    }
    return new KafkaDemo(
            records, chained, directory, failpoint, WebServerOptions.DEFAULT_HOST, webPort, keep)
        .run();
  }
}
