package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** Every Weir process's logging, set up without an XML file. */
class LoggingSetupTest {
  @Test
  void when_configured_then_weirWarnsOnStandardErrorAndTheClientsOnlyWhenItMatters() {
    // given
    LoggerContext context = new LoggerContext();
    LoggingSetup setup = new LoggingSetup();
    setup.setContext(context);

    // when
    ExecutionStatus status = setup.configure(context);

    // then
    assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    Level expectedRoot = Level.toLevel(System.getenv(LoggingSetup.LEVEL_VARIABLE), Level.WARN);
    assertThat(root.getLevel()).isEqualTo(expectedRoot);
    assertThat(root.getAppender("STDERR"))
        .isInstanceOfSatisfying(
            ConsoleAppender.class,
            appender -> {
              assertThat(appender.getTarget()).isEqualTo("System.err");
              assertThat(appender.isStarted()).isTrue();
            });
    assertThat(context.getLogger("org.apache.kafka").getLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("org.apache.kafka.clients.NetworkClient").getLevel())
        .isEqualTo(Level.ERROR);
    assertThat(context.getLogger("org.apache.zookeeper").getLevel()).isEqualTo(Level.WARN);
    // A Weir class inherits the root's level: its warnings are shown.
    assertThat(context.getLogger("io.weir.runtime.jobmaster.JobDriver").getEffectiveLevel())
        .isEqualTo(expectedRoot);
  }

  @Test
  void when_aConfigurationFileIsNamed_then_itTakesOver() {
    LoggerContext context = new LoggerContext();
    LoggingSetup setup = new LoggingSetup();
    setup.setContext(context);
    String previous = System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY);
    System.setProperty(ContextInitializer.CONFIG_FILE_PROPERTY, "custom-logback.xml");
    try {
      assertThat(setup.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
      assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
    } finally {
      if (previous == null) {
        System.clearProperty(ContextInitializer.CONFIG_FILE_PROPERTY);
      } else {
        System.setProperty(ContextInitializer.CONFIG_FILE_PROPERTY, previous);
      }
    }
  }
}
