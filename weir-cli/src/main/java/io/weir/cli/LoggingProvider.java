package io.weir.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LogbackServiceProvider;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.CoreConstants;

/**
 * Logback as SLF4J's provider, set up by {@link LoggingSetup} directly. {@link WeirCli} names this
 * class in SLF4J's {@code slf4j.provider} property, so that neither library searches the class path
 * for its services (the first such search opens every jar on it, some sixty) and logback runs none
 * of its configurators' lookup: the first logger of a process took about 50 ms instead of 100, on
 * the thread that goes on to build and deploy the job. A file named by {@code
 * -Dlogback.configurationFile} still takes over, through logback's own start.
 */
public final class LoggingProvider extends LogbackServiceProvider {
  /** SLF4J's property naming its provider (read once, by the first logger's creation). */
  static final String PROPERTY = "slf4j.provider";

  /** The level of SLF4J's own reports on standard error. */
  private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

  /**
   * Names this provider to SLF4J, unless the process was given another, before its first logger.
   * SLF4J announces a named provider on standard error at its INFO level, so its own reports are
   * set to warnings unless given: a provider that cannot be loaded still shows.
   */
  static void nameToSlf4j() {
    if (System.getProperty(PROPERTY) != null) {
      return;
    }
    System.setProperty(PROPERTY, LoggingProvider.class.getName());
    if (System.getProperty(SLF4J_VERBOSITY) == null) {
      System.setProperty(SLF4J_VERBOSITY, "WARN");
    }
  }

  @Override
  public void initialize() {
    if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null) {
      super.initialize();
      return;
    }
    LoggerContext context = (LoggerContext) getLoggerFactory();
    context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
    context.setMDCAdapter(getMDCAdapter());
    LoggingSetup setup = new LoggingSetup();
    setup.setContext(context);
    setup.configure(context);
    context.start();
  }
}
