package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.devservers.process.DevServerException;
import io.weir.devservers.process.FreePorts;
import io.weir.devservers.zookeeper.ZooKeeperServerRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weir zookeeper start|stop}: a standalone ZooKeeper server for job manager high
 * availability, in a process of its own that outlives the command (started and found again through
 * the pid files the cluster's processes use). Any other ensemble works as well: the job managers
 * only need its connection string.
 */
@Command(
    name = "zookeeper",
    description = "Start or stop a ZooKeeper server for job manager high availability.",
    mixinStandardHelpOptions = true,
    subcommands = {
      ZooKeeperCommand.Start.class,
      ZooKeeperCommand.Stop.class,
      ZooKeeperCommand.Run.class
    })
public final class ZooKeeperCommand implements Runnable {
  static final int DEFAULT_PORT = 2181;
  private static final String NAME = "zookeeper";
  private static final long START_TIMEOUT_MILLIS = 60_000;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    new CommandLine(spec).usage(spec.commandLine().getOut());
  }

  /** The {@code --dir} option of every subcommand. */
  static final class DirectoryOption {
    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description = "Server directory (configuration, data, log, pid). Default: .weir/zookeeper")
    Path directory = Path.of(".weir", "zookeeper");

    Path absolute() {
      return directory.toAbsolutePath().normalize();
    }
  }

  /** {@code weir zookeeper start}. */
  @Command(name = "start", description = "Start a ZooKeeper server in the background.")
  static final class Start implements Runnable {
    @CommandLine.Mixin DirectoryOption directory = new DirectoryOption();

    @Option(names = "--port", paramLabel = "PORT", description = "Client port on 127.0.0.1.")
    int port = DEFAULT_PORT;

    @Override
    public void run() {
      Path state = directory.absolute();
      ClusterPidFiles pids = new ClusterPidFiles(state);
      Optional<ProcessHandle> running = pids.process(NAME);
      if (running.isPresent()) {
        throw new UserError(
            "a ZooKeeper server is already running in "
                + state
                + " (pid "
                + running.get().pid()
                + "); stop it with: weir zookeeper stop --dir "
                + directory.directory);
      }
      int chosen;
      try {
        chosen = FreePorts.resolve(port, "ZooKeeper", "");
      } catch (DevServerException e) {
        throw new UserError(e.getMessage(), e);
      }
      Process process;
      try {
        Files.createDirectories(state);
        process =
            pids.spawn(
                NAME, List.of(NAME, "run", "--dir", state.toString(), "--port", "" + chosen));
      } catch (IOException e) {
        throw new UserError("Cannot start ZooKeeper in " + state + ": " + e.getMessage(), e);
      }
      awaitServing(process, chosen, pids.log(NAME));
      System.out.println("127.0.0.1:" + chosen);
      System.out.println(
          "ZooKeeper running (pid "
              + process.pid()
              + ", directory "
              + state
              + ", log "
              + pids.log(NAME)
              + ")");
    }

    /** Until the server answers {@code ruok} with {@code imok}; fails when it exits first. */
    private static void awaitServing(Process process, int port, Path log) {
      long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
      while (!answersImOk(port)) {
        if (!process.isAlive() || System.currentTimeMillis() > deadline) {
          process.destroyForcibly();
          throw new UserError(
              "ZooKeeper on port "
                  + port
                  + " failed to start ("
                  + (process.isAlive() ? "no answer in time" : "it exited")
                  + "); see "
                  + log);
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new UserError("Interrupted while starting ZooKeeper");
        }
      }
    }

    private static boolean answersImOk(int port) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
        socket.setSoTimeout(1_000);
        OutputStream out = socket.getOutputStream();
        out.write("ruok".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII).equals("imok");
      } catch (IOException e) {
        return false;
      }
    }
  }

  /** {@code weir zookeeper stop}. */
  @Command(name = "stop", description = "Stop the server started by 'weir zookeeper start'.")
  static final class Stop implements Runnable {
    private static final Duration STOP_WAIT = Duration.ofSeconds(15);

    @CommandLine.Mixin DirectoryOption directory = new DirectoryOption();

    @Override
    public void run() {
      Path state = directory.absolute();
      Optional<ProcessHandle> running = new ClusterPidFiles(state).process(NAME);
      try {
        new ClusterPidFiles(state).stopAll(STOP_WAIT);
      } catch (Exception e) {
        running.ifPresent(ProcessHandle::destroyForcibly);
        throw new UserError("Cannot stop ZooKeeper in " + state + ": " + e.getMessage(), e);
      }
      System.out.println(
          running
              .map(process -> "stopped the ZooKeeper server (pid " + process.pid() + ")")
              .orElse("no ZooKeeper server is running in " + state));
    }
  }

  /** {@code weir zookeeper run}: the server itself, in the process {@code start} spawns. */
  @Command(name = "run", hidden = true, description = "Run a ZooKeeper server in this process.")
  static final class Run implements Runnable {
    @CommandLine.Mixin DirectoryOption directory = new DirectoryOption();

    @Option(names = "--port", paramLabel = "PORT", description = "Client port.")
    int port = DEFAULT_PORT;

    @Option(
        names = "--host",
        paramLabel = "ADDRESS",
        description = "Address to serve on (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Override
    public void run() {
      try {
        ZooKeeperServerRunner.run(directory.absolute(), host, port);
      } catch (IOException | RuntimeException e) {
        throw new UserError("ZooKeeper stopped: " + e.getMessage(), e);
      }
    }
  }
}
