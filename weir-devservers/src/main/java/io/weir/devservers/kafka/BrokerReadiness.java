package io.weir.devservers.kafka;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Waits until a starting broker serves clients: first its port accepts connections (so clients do
 * not log connection failures while the JVM starts), then {@code describeCluster} names a node.
 */
final class BrokerReadiness {
  private static final Duration POLL = Duration.ofMillis(100);

  private BrokerReadiness() {}

  /**
   * Returns when the broker at {@code address} ({@code host:port}) answers; returns false when
   * {@code alive} turns false or the deadline passes first.
   */
  static boolean await(String address, Instant deadline, BooleanSupplier alive)
      throws InterruptedException {
    while (!accepts(address)) {
      if (!alive.getAsBoolean() || Instant.now().isAfter(deadline)) {
        return false;
      }
      Thread.sleep(POLL.toMillis());
    }
    try (Admin admin = Admin.create(adminConfig(address))) {
      while (alive.getAsBoolean() && Instant.now().isBefore(deadline)) {
        if (describesNode(admin)) {
          return true;
        }
        Thread.sleep(POLL.toMillis());
      }
    }
    return false;
  }

  private static boolean accepts(String address) {
    int colon = address.lastIndexOf(':');
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(
              address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))),
          500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean describesNode(Admin admin) throws InterruptedException {
    try {
      return !admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty();
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  private static Map<String, Object> adminConfig(String address) {
    return Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address,
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000,
        AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
  }
}
