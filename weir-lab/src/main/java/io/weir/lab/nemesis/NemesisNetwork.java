package io.weir.lab.nemesis;

import io.weir.lab.LabUserError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The nemesis lab's network: a bridge in the lab's own namespace (address {@code
 * 10.77.<slot>.1/24}) and one network namespace per simulated host, each joined to the bridge by a
 * veth pair and given an address of its own in the slot's private range {@code 10.77.<slot>.0/24}.
 * The lab itself (the feed, the checker, the admin client) reaches every host through the bridge.
 *
 * <p>Faults are made here: {@link #cut} takes a host's bridge link down (every connection of the
 * host stalls, as with a pulled cable), {@link #blackhole} drops what one host sends to another.
 * Each is undone by its heal method, which may run twice.
 *
 * <p>Everything it creates carries its {@link NetworkSlot}'s prefix, so {@link #removeLeftovers}
 * can clear what a crashed lab of the slot left behind. Methods are thread-safe.
 */
public final class NemesisNetwork implements AutoCloseable {
  private static final int FIRST_HOST_ADDRESS = 11;
  private static final long KILL_WAIT_SECONDS = 10;

  private final NetworkSlot slot;
  private final List<LabHost> hosts;

  private NemesisNetwork(NetworkSlot slot, List<LabHost> hosts) {
    this.slot = slot;
    this.hosts = List.copyOf(hosts);
  }

  /**
   * Creates the slot's bridge and one host per name, in order: the first gets the slot's address
   * .11, the next .12, and so on. Fails with one line without the privilege to create namespaces,
   * or when a lab network exists already; a failure halfway removes what was made.
   */
  public static NemesisNetwork create(NetworkSlot slot, List<String> hostNames) {
    createBridge(slot);
    List<LabHost> hosts = new ArrayList<>();
    try {
      for (int index = 0; index < hostNames.size(); index++) {
        hosts.add(createHost(slot, hostNames.get(index), index));
      }
    } catch (RuntimeException e) {
      new NemesisNetwork(slot, hosts).close();
      throw e;
    }
    return new NemesisNetwork(slot, hosts);
  }

  private static void createBridge(NetworkSlot slot) {
    String bridge = slot.bridge();
    IpCommand.Result created = IpCommand.attempt("link", "add", bridge, "type", "bridge");
    if (created.exit() != 0) {
      String why = created.output().strip();
      if (why.contains("File exists")) {
        throw new LabUserError(
            "a nemesis lab network exists already (bridge "
                + bridge
                + "): another lab runs, or one crashed; weir lab --nemesis-cleanup removes it"
                + " (--nemesis-network chooses another)");
      }
      if (why.contains("Operation not permitted")) {
        throw new LabUserError(
            "the nemesis lab needs the privilege to create network namespaces (root or"
                + " CAP_NET_ADMIN): ip link add "
                + bridge
                + " type bridge: "
                + why);
      }
      throw new LabUserError("cannot create the nemesis lab's bridge " + bridge + ": " + why);
    }
    try {
      IpCommand.run("addr", "add", slot.subnet() + "1/24", "dev", bridge);
      IpCommand.run("link", "set", bridge, "up");
    } catch (RuntimeException e) {
      IpCommand.attempt("link", "del", bridge);
      throw e;
    }
  }

  private static LabHost createHost(NetworkSlot slot, String name, int index) {
    String namespace = slot.namespacePrefix() + name;
    String bridgeLink = slot.bridgeLink(index);
    String hostLink = bridgeLink + "h";
    LabHost host =
        new LabHost(name, namespace, slot.subnet() + (FIRST_HOST_ADDRESS + index), bridgeLink);
    IpCommand.run("netns", "add", namespace);
    IpCommand.run("link", "add", bridgeLink, "type", "veth", "peer", "name", hostLink);
    IpCommand.run("link", "set", hostLink, "netns", namespace);
    IpCommand.run("-n", namespace, "addr", "add", host.address() + "/24", "dev", hostLink);
    IpCommand.run("-n", namespace, "link", "set", "lo", "up");
    IpCommand.run("-n", namespace, "link", "set", hostLink, "up");
    IpCommand.run("link", "set", bridgeLink, "master", slot.bridge());
    IpCommand.run("link", "set", bridgeLink, "up");
    return host;
  }

  /** The slot the network lives in. */
  public NetworkSlot slot() {
    return slot;
  }

  /** The hosts, in the order their names were given. */
  public List<LabHost> hosts() {
    return hosts;
  }

  /** The host named {@code name}. */
  public LabHost host(String name) {
    return hosts.stream()
        .filter(host -> host.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no lab host named " + name));
  }

  /** Takes {@code host}'s link to the bridge down: it reaches nobody, nobody reaches it. */
  public void cut(LabHost host) {
    IpCommand.run("link", "set", host.bridgeLink(), "down");
  }

  /** Brings {@code host}'s link to the bridge up again. */
  public void heal(LabHost host) {
    IpCommand.run("link", "set", host.bridgeLink(), "up");
  }

  /** Drops everything {@code from} sends to {@code to} (a route to nowhere on {@code from}). */
  public void blackhole(LabHost from, LabHost to) {
    IpCommand.run("-n", from.namespace(), "route", "add", "blackhole", to.address() + "/32");
  }

  /** Removes the route to nowhere from {@code from} to {@code to}; nothing when there is none. */
  public void removeBlackhole(LabHost from, LabHost to) {
    IpCommand.attempt("-n", from.namespace(), "route", "del", "blackhole", to.address() + "/32");
  }

  /**
   * Splits the network in two: each host of {@code one} drops what it sends to each host of {@code
   * other}, and the reverse. The lab's own namespace reaches both sides still.
   */
  public void split(List<LabHost> one, List<LabHost> other) {
    for (LabHost left : one) {
      for (LabHost right : other) {
        blackhole(left, right);
        blackhole(right, left);
      }
    }
  }

  /** Undoes {@link #split} of the same two sides; may run twice. */
  public void join(List<LabHost> one, List<LabHost> other) {
    for (LabHost left : one) {
      for (LabHost right : other) {
        removeBlackhole(left, right);
        removeBlackhole(right, left);
      }
    }
  }

  /**
   * Kills every process still in a host's namespace (SIGKILL), then removes the namespaces, their
   * veth pairs and the bridge. Idempotent; never throws.
   */
  @Override
  public void close() {
    for (LabHost host : hosts) {
      removeNamespace(host.namespace());
    }
    IpCommand.attempt("link", "del", slot.bridge());
  }

  /**
   * Removes what a lab of {@code slot} that did not end cleanly left: every namespace named with
   * the slot's prefix (after killing its processes) and the slot's bridge.
   *
   * @return the namespaces and links removed, empty when there were none
   */
  public static List<String> removeLeftovers(NetworkSlot slot) {
    List<String> removed = new ArrayList<>();
    for (String line : IpCommand.run("netns", "list").split("\n")) {
      String namespace = line.strip().split(" ")[0];
      if (namespace.startsWith(slot.namespacePrefix())) {
        removeNamespace(namespace);
        removed.add("namespace " + namespace);
      }
    }
    if (IpCommand.attempt("link", "del", slot.bridge()).exit() == 0) {
      removed.add("bridge " + slot.bridge());
    }
    return removed;
  }

  private static void removeNamespace(String namespace) {
    IpCommand.Result pids = IpCommand.attempt("netns", "pids", namespace);
    if (pids.exit() == 0) {
      for (String pid : pids.output().split("\\s+")) {
        if (!pid.isBlank()) {
          ProcessHandle.of(Long.parseLong(pid)).ifPresent(NemesisNetwork::killAndWait);
        }
      }
    }
    // Deleting the namespace (once no process holds it) deletes the veth pair whose one end it
    // holds.
    IpCommand.attempt("netns", "del", namespace);
  }

  private static void killAndWait(ProcessHandle process) {
    process.destroyForcibly();
    try {
      process.onExit().get(KILL_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Left to the namespace's deletion, which then waits for the process itself.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
