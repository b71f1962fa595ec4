package io.weir.devservers.kafka;

import io.weir.devservers.process.FreePorts;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * The ports of one try at starting brokers on the loopback address: each port asked for is checked
 * free, each left at 0 is chosen free, and no two are the same. It remembers which ports it chose,
 * since only those may be chosen again when a broker finds one taken ({@link BrokerStart}).
 */
final class BrokerPorts {
  private final IntSupplier freePort;
  private final String server;
  private final Set<Integer> assigned = new HashSet<>();
  private final Set<Integer> chosen = new HashSet<>();

  /**
   * @param freePort chooses a port nobody listens on now
   * @param server what is started, for the message when a port asked for is in use
   */
  BrokerPorts(IntSupplier freePort, String server) {
    this.freePort = freePort;
    this.server = server;
  }

  /**
   * {@code asked} if it is free, or a free port for 0 (or when {@code asked} is assigned already);
   * fails with one line naming the port when {@code asked} is in use.
   */
  int assign(int asked, String role) {
    int port = asked == 0 ? choose() : FreePorts.resolve(asked, server, role);
    while (!assigned.add(port)) {
      port = choose();
    }
    return port;
  }

  /** Whether this try chose {@code port} itself, rather than being asked for it. */
  boolean chose(int port) {
    return chosen.contains(port);
  }

  private int choose() {
    int port = freePort.getAsInt();
    chosen.add(port);
    return port;
  }
}
