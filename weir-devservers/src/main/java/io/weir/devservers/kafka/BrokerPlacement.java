package io.weir.devservers.kafka;

import io.weir.devservers.process.FreePorts;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Where each broker of a cluster runs: the address it listens on and advertises, and the command
 * its JVM is started through. {@link #LOOPBACK} keeps every broker on 127.0.0.1 on ports of its
 * own; a placement on hosts of their own (a network namespace each, entered by {@code ip netns exec
 * NAME}) gives every broker the same well-known ports, since no two share an address.
 *
 * @param host the address of broker {@code nodeId}
 * @param launchPrefix the command that runs the broker's {@code java ...} command line where it
 *     belongs (empty: run it directly)
 */
public record BrokerPlacement(IntFunction<String> host, IntFunction<List<String>> launchPrefix) {
  /** Every broker on the loopback address, started directly. */
  public static final BrokerPlacement LOOPBACK =
      new BrokerPlacement(nodeId -> FreePorts.HOST, nodeId -> List.of());

  /** The client port of a broker on an address of its own. */
  public static final int OWN_HOST_CLIENT_PORT = 9092;

  /** The controller port of a broker on an address of its own. */
  public static final int OWN_HOST_CONTROLLER_PORT = 9093;

  public BrokerPlacement {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(launchPrefix, "launchPrefix");
  }

  /** Whether broker {@code nodeId} listens on the loopback address the port checks look at. */
  boolean onLoopback(int nodeId) {
    return FreePorts.HOST.equals(host.apply(nodeId));
  }
}
