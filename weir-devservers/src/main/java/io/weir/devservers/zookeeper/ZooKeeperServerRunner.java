package io.weir.devservers.zookeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.admin.AdminServer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;

/**
 * Runs a standalone ZooKeeper server in this process until the process ends, with its data and
 * configuration in one directory, bound to 127.0.0.1 unless told otherwise. {@code weir zookeeper
 * start} runs it in a process of its own, so that tests and users can kill the job managers without
 * killing ZooKeeper (and kill ZooKeeper too).
 */
public final class ZooKeeperServerRunner {
  /**
   * Ticks of 500 ms: ZooKeeper grants sessions between 2 and 20 ticks, so job managers may ask for
   * sessions as short as one second, which bounds how long a dead leader goes unnoticed.
   */
  static final int TICK_MILLIS = 500;

  private static final String LOOPBACK = "127.0.0.1";

  private ZooKeeperServerRunner() {}

  /** {@code DIRECTORY PORT}: serves until the process ends (tests start it as its own process). */
  public static void main(String[] args) throws IOException {
    run(Path.of(args[0]), Integer.parseInt(args[1]));
  }

  /** Serves on {@code 127.0.0.1:port} from {@code directory}; blocks until the process ends. */
  public static void run(Path directory, int port) throws IOException {
    run(directory, LOOPBACK, port);
  }

  /**
   * Serves on {@code host:port} from {@code directory}; blocks until the process ends. A host of
   * its own is for a server on a machine (or a network namespace) that others reach by its address.
   */
  public static void run(Path directory, String host, int port) throws IOException {
    Path configuration = writeConfiguration(directory.toAbsolutePath(), host, port);
    // The admin server would bind an HTTP port of its own (8080 by default): not wanted here.
    System.setProperty("zookeeper.admin.enableServer", "false");
    ServerConfig config = new ServerConfig();
    try {
      config.parse(configuration.toString());
      new ZooKeeperServerMain().runFromConfig(config);
    } catch (QuorumPeerConfig.ConfigException | AdminServer.AdminServerException e) {
      throw new IllegalStateException("ZooKeeper in " + directory + ": " + e.getMessage(), e);
    }
  }

  private static Path writeConfiguration(Path directory, String host, int port) {
    try {
      Files.createDirectories(directory.resolve("data"));
      Path file = directory.resolve("zoo.cfg");
      Files.writeString(
          file,
          String.join(
              "\n",
              "# Written by weir zookeeper start",
              "tickTime=" + TICK_MILLIS,
              "dataDir=" + directory.resolve("data"),
              "clientPort=" + port,
              "clientPortAddress=" + host,
              "maxClientCnxns=200",
              "4lw.commands.whitelist=ruok,srvr",
              ""));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the ZooKeeper configuration in " + directory, e);
    }
  }
}
