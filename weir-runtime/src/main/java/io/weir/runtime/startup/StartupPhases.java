package io.weir.runtime.startup;

import java.lang.management.ManagementFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a job's start-up time goes: each phase from the JVM's launch to the first committed output
 * is logged once, with the milliseconds since the JVM started, by the logger {@value #LOGGER} at
 * INFO ({@code weir run --verbose} turns it on). Off, a call costs one level check.
 *
 * <p>Threads: any; a call logs and returns, it never blocks for long.
 */
public final class StartupPhases {
  /** The logger's name, for the command line to turn on. */
  public static final String LOGGER = "io.weir.startup";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

  private StartupPhases() {}

  /** Logs that {@code phase} was reached now, e.g. "every subtask runs". */
  public static void reached(String phase) {
    if (LOG.isInfoEnabled()) {
      long sinceLaunch =
          System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
      LOG.info("start-up: {} ms after the JVM started: {}", sinceLaunch, phase);
    }
  }
}
