package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/** SLF4J's provider in every Weir process: logback, set up without a search of the class path. */
class LoggingProviderTest {
  @TempDir Path directory;

  @Test
  void when_initialized_then_theContextRunsWithLoggingSetupsAppender() {
    // given
    LoggingProvider provider = new LoggingProvider();

    // when
    provider.initialize();

    // then
    LoggerContext context = (LoggerContext) provider.getLoggerFactory();
    assertThat(context.isStarted()).isTrue();
    assertThat(context.getName()).isEqualTo("default");
    assertThat(context.getMDCAdapter()).isSameAs(provider.getMDCAdapter());
    assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR"))
        .isInstanceOfSatisfying(
            ConsoleAppender.class, appender -> assertThat(appender.isStarted()).isTrue());
  }

  @Test
  void when_aConfigurationFileIsNamed_then_logbackReadsIt() throws Exception {
    // given
    Path file = directory.resolve("custom-logback.xml");
    Files.writeString(
        file,
        "<configuration><appender name=\"FROM_FILE\""
            + " class=\"ch.qos.logback.core.ConsoleAppender\"><encoder><pattern>%msg%n</pattern>"
            + "</encoder></appender><root level=\"INFO\"><appender-ref ref=\"FROM_FILE\"/></root>"
            + "</configuration>");
    String previous = System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY);
    System.setProperty(ContextInitializer.CONFIG_FILE_PROPERTY, file.toString());
    LoggingProvider provider = new LoggingProvider();
    try {
      // when
      provider.initialize();
    } finally {
      if (previous == null) {
        System.clearProperty(ContextInitializer.CONFIG_FILE_PROPERTY);
      } else {
        System.setProperty(ContextInitializer.CONFIG_FILE_PROPERTY, previous);
      }
    }

    // then
    ch.qos.logback.classic.Logger root =
        ((LoggerContext) provider.getLoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getAppender("FROM_FILE")).isNotNull();
    assertThat(root.getAppender("STDERR")).isNull();
  }

  @Test
  void when_aCommandLogs_then_slf4jReportsNothingOfItsOwnOnStandardError() throws Exception {
    // given: a command whose error path makes loggers, against a job manager that is not there
    List<String> listing = List.of("list", "--jobmanager", "127.0.0.1:1");

    // when
    TrainingJvm.Result result =
        TrainingJvm.run(WeirCli.class, listing, directory, Duration.ofMinutes(1));

    // then: SLF4J went through this provider, and said so nowhere
    assertThat(result.ended()).isTrue();
    assertThat(result.loaded(LoggingProvider.class.getName())).isTrue();
    assertThat(result.errors()).contains("Cannot reach the job manager").doesNotContain("SLF4J");
  }

  @Test
  void when_theCommandLineRuns_then_itNamesThisProviderToSlf4j() {
    WeirCli.run("--version");

    assertThat(System.getProperty(LoggingProvider.PROPERTY))
        .isEqualTo(LoggingProvider.class.getName());
  }
}
