package io.weir.devservers.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/** Chooses and checks TCP ports on the loopback address the development servers listen on. */
public final class FreePorts {
  public static final String HOST = "127.0.0.1";

  /** Where Linux states the range it gives the local ends of outgoing connections. */
  static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

  /** The lowest port chosen: well clear of the registered ports of common servers below it. */
  static final int LOWEST = 10_000;

  private static final int TRIES = 200;

  private static final int NONE = 65_536;

  private FreePorts() {}

  /**
   * A port nobody listens on right now (another process may still take it before we do), below the
   * range the kernel takes the local ends of outgoing connections from. A server restarted on its
   * port, as a broker is after it was stopped, would otherwise find it taken by whichever client
   * connection got it as its local end while the server was down.
   */
  public static int pick() {
    int highest = ephemeralLow(EPHEMERAL_RANGE) - 1;
    if (highest > LOWEST) {
      for (int i = 0; i < TRIES; i++) {
        int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
        if (isFree(port)) {
          return port;
        }
      }
    }
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new DevServerException("cannot find a free port on " + HOST, "", e);
    }
  }

  /** The given port, or a free one for 0; fails with one line when the port is taken. */
  public static int resolve(int port, String server, String role) {
    if (port == 0) {
      return pick();
    }
    try {
      bind(port);
      return port;
    } catch (IOException e) {
      throw new DevServerException(
          "cannot start "
              + server
              + ": "
              + (role.isEmpty() ? "" : role + " ")
              + "port "
              + port
              + " on "
              + HOST
              + " is in use",
          "",
          e);
    }
  }

  /**
   * The first port of the kernel's range for outgoing connections, or 65,536 where the kernel does
   * not state it (then every port is chosen by the kernel, as {@code new ServerSocket(0)} does).
   */
  static int ephemeralLow(Path range) {
    // Read as a stream: a file of /proc states its size as 0, and Files.readString reads it short.
    try (BufferedReader reader = Files.newBufferedReader(range, StandardCharsets.US_ASCII)) {
      String line = reader.readLine();
      return line == null ? NONE : Integer.parseInt(line.trim().split("\\s+")[0]);
    } catch (IOException | UncheckedIOException | NumberFormatException e) {
      return NONE;
    }
  }

  private static boolean isFree(int port) {
    try {
      bind(port);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void bind(int port) throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
    }
  }
}
