package io.weir.devservers.kafka;

import io.weir.devservers.process.LogTail;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Kafka main classes in child JVMs: the storage tool that formats a new directory, and the
 * broker itself. The broker is started in a session of its own (through {@code setsid} when the
 * system has it) with its output in a file, so it outlives the JVM that started it, even when that
 * JVM is killed or its terminal closes. A launch prefix ({@code ip netns exec NAME}) runs the
 * broker where its placement puts it; the prefix execs the JVM, so the process id stays the
 * broker's.
 */
final class BrokerLauncher {
  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private final KafkaBrokerConfig config;
  private final BrokerFiles files;
  private final List<String> launchPrefix;

  BrokerLauncher(KafkaBrokerConfig config, BrokerFiles files, List<String> launchPrefix) {
    this.config = config;
    this.files = files;
    this.launchPrefix = List.copyOf(launchPrefix);
  }

  void checkJava() {
    if (!Files.isExecutable(config.javaExecutable())) {
      throw new KafkaBrokerException(
          "cannot start Kafka broker in "
              + files.directory()
              + ": no Java executable at "
              + config.javaExecutable());
    }
  }

  /**
   * Formats the data directory for {@code clusterId} unless it is formatted already. The nodes of
   * one cluster must be formatted with the same id; the static quorum in {@code server.properties}
   * ({@code controller.quorum.voters}) needs nothing more from the tool.
   */
  void maybeFormat(String clusterId, Duration timeout) {
    if (files.isFormatted()) {
      return;
    }
    List<String> command = javaCommand("kafka.tools.StorageTool");
    command.addAll(
        List.of(
            "format",
            "--ignore-formatted",
            "-t",
            clusterId,
            "-c",
            files.serverProperties().toString()));
    try {
      Process format = startProcess(command, false);
      if (!format.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        format.destroyForcibly();
        throw failure("formatting did not finish within " + timeout, null);
      }
      if (format.exitValue() != 0) {
        throw failure("formatting failed with exit code " + format.exitValue(), null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("interrupted while formatting", e);
    }
  }

  Process startBroker() {
    List<String> command = new ArrayList<>(launchPrefix);
    command.addAll(javaCommand("kafka.Kafka"));
    command.add(files.serverProperties().toString());
    return startProcess(command, Files.isExecutable(SETSID));
  }

  private List<String> javaCommand(String mainClass) {
    List<String> command = new ArrayList<>();
    command.add(config.javaExecutable().toString());
    command.addAll(
        List.of(
            "-Xms64m",
            "-Xmx" + config.maxHeapMegabytes() + "m",
            "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=20",
            "-Djava.awt.headless=true",
            "-Dlog4j2.configurationFile=" + files.loggingConfiguration().toUri(),
            "-Dkafka.logs.dir=" + files.directory(),
            mainClass));
    return command;
  }

  private Process startProcess(List<String> command, boolean ownSession) {
    List<String> fullCommand = new ArrayList<>();
    if (ownSession) {
      fullCommand.add(SETSID.toString());
    }
    fullCommand.addAll(command);
    ProcessBuilder builder =
        new ProcessBuilder(fullCommand)
            .directory(files.directory().toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(files.processOutput().toFile()));
    // Through the environment, not -cp: the command line stays short enough for the process
    // table (which shows 4 KB), so the broker can be recognised by its main class.
    builder.environment().put("CLASSPATH", BrokerClasspath.get());
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      return process;
    } catch (IOException e) {
      throw failure("cannot run " + command.get(0), e);
    }
  }

  private KafkaBrokerException failure(String what, Throwable cause) {
    return new KafkaBrokerException(
        "cannot start Kafka broker in " + files.directory() + ": " + what,
        LogTail.of(files.processOutput(), 40),
        cause);
  }
}
