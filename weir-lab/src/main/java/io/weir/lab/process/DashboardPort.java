package io.weir.lab.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.function.Consumer;

/**
 * The dashboard port for the job processes of a demo or lab run, chosen before they start so the
 * address can be printed once and stays the same across a restart: the wanted port when it is free,
 * else (said through {@code say}) any free port.
 */
public final class DashboardPort {
  private DashboardPort() {}

  public static int choose(int wanted, Consumer<String> say) throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    if (wanted != 0) {
      try (ServerSocket probe = new ServerSocket(wanted, 1, loopback)) {
        return wanted;
      } catch (IOException taken) {
        // Fall through to a free port, and say so.
      }
    }
    try (ServerSocket probe = new ServerSocket(0, 1, loopback)) {
      if (wanted != 0) {
        say.accept("port " + wanted + " is taken; the dashboard uses port " + probe.getLocalPort());
      }
      return probe.getLocalPort();
    }
  }
}
