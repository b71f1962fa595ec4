package io.weir.devservers.kafka;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Where one KRaft node listens, and its id in the quorum. Every node of Weir's development servers
 * is a broker and a controller in one process. The host is part of each node so that a node can be
 * given an address of its own (a network namespace) without changing how its files are written.
 *
 * @param nodeId {@code node.id}, unique in the cluster, from 1
 * @param host the address its client and controller listeners bind to and advertise
 * @param port the client (PLAINTEXT) port
 * @param controllerPort the KRaft controller port
 */
record BrokerNode(int nodeId, String host, int port, int controllerPort) {

  String clientAddress() {
    return host + ":" + port;
  }

  /** {@code controller.quorum.voters}: every node's {@code id@host:controllerPort}. */
  static String quorumVoters(List<BrokerNode> voters) {
    return voters.stream()
        .map(voter -> voter.nodeId() + "@" + voter.host() + ":" + voter.controllerPort())
        .collect(Collectors.joining(","));
  }
}
