package io.weir.devservers.kafka;

import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts brokers, a single one or a cluster, on ports chosen for them, and chooses again when a
 * broker exits because a chosen port was taken between choosing and binding: another server, or the
 * local end of any outgoing connection, which the system takes from the same range. A port the
 * configuration asked for is never replaced: a conflict on it fails the start.
 */
final class BrokerStart {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerStart.class);

  /** How many times a start may choose ports, when a broker finds a chosen one taken. */
  static final int PORT_CONFLICT_TRIES = 3;

  private BrokerStart() {}

  /**
   * Runs {@code start} with fresh {@link BrokerPorts} until it returns, at most {@value
   * #PORT_CONFLICT_TRIES} times in all, logging each new try. {@code start} must stop whatever it
   * started before it throws.
   *
   * @param directory where the brokers live, for the log line
   * @param server what is started ("Kafka broker", "Kafka cluster"), for messages
   * @param freePort chooses each port left at 0
   * @throws BrokerPortTakenException when the taken port was asked for, or at the last try
   */
  static <T> T retryingOnPortConflict(
      Path directory, String server, IntSupplier freePort, Function<BrokerPorts, T> start) {
    for (int tries = 1; ; tries++) {
      BrokerPorts ports = new BrokerPorts(freePort, server);
      try {
        return start.apply(ports);
      } catch (BrokerPortTakenException e) {
        int port = e.conflict().port();
        if (!ports.chose(port) || tries == PORT_CONFLICT_TRIES) {
          throw e;
        }
        LOG.warn(
            "{} in {}: port {} was taken before the broker bound it ({});"
                + " starting again on fresh ports, try {} of {}",
            server,
            directory,
            port,
            e.conflict().line(),
            tries + 1,
            PORT_CONFLICT_TRIES);
      }
    }
  }
}
