package io.weir.devservers.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Chooses and checks TCP ports on the loopback address the development servers listen on. */
public final class FreePorts {
  public static final String HOST = "127.0.0.1";

  private FreePorts() {}

  /** A port nobody listens on right now (another process may still take it before we do). */
  public static int pick() {
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
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
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
}
