package io.weir.lab.nemesis;

import java.util.List;

/**
 * One simulated host of the nemesis lab: a network namespace with one address, linked to the lab's
 * bridge by a veth pair whose bridge end the lab can take down (a cut cable).
 *
 * @param name the host's name in the lab's log, e.g. {@code broker-2} or {@code job}
 * @param namespace the network namespace
 * @param address its IPv4 address on the lab's network
 * @param bridgeLink the veth end attached to the bridge, in the lab's own namespace
 */
public record LabHost(String name, String namespace, String address, String bridgeLink) {
  /** The command that runs a command line on this host: {@code ip netns exec NAMESPACE}. */
  public List<String> launchPrefix() {
    return List.of("ip", "netns", "exec", namespace);
  }
}
