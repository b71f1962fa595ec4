package io.weir.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The logging of every Weir process: one line per event on standard error, Weir's warnings and
 * errors, and the chatty clients' only when they matter. Logback finds it as a service and runs it
 * before looking for an XML file, whose parsing (an XML parser and some 300 classes of logback's
 * configuration model) took about a tenth of a second on the way to every job's first output. A
 * file named by {@code -Dlogback.configurationFile} still takes over.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_LOW_PRIORITY)
public final class LoggingSetup extends ContextAwareBase implements Configurator {
  /** The root level: {@code WARN} unless the environment says otherwise. */
  static final String LEVEL_VARIABLE = "WEIR_LOG_LEVEL";

  private static final Map<String, Level> QUIETER =
      Map.of(
          "org.apache.kafka", Level.WARN,
          // An unreachable address is reported as one line; the clients repeat it on every retry.
          "org.apache.kafka.clients.NetworkClient", Level.ERROR,
          "org.apache.kafka.clients.ClientUtils", Level.ERROR,
          // ZooKeeper's client and Curator log every session step; Weir logs leadership changes.
          "org.apache.zookeeper", Level.WARN,
          "org.apache.curator", Level.WARN);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%n");
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("STDERR");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getenv(LEVEL_VARIABLE), Level.WARN));
    root.addAppender(appender);
    QUIETER.forEach((name, level) -> context.getLogger(name).setLevel(level));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
