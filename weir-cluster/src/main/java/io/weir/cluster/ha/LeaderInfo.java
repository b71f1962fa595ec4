package io.weir.cluster.ha;

import io.weir.cluster.rpc.HostAndPort;
import java.nio.charset.StandardCharsets;

/**
 * The current leader as ZooKeeper holds it: where task managers and clients reach it, its process,
 * and its epoch (which every message it sends to a task manager carries).
 */
public record LeaderInfo(HostAndPort address, long pid, long epoch) {
  byte[] encode() {
    return (address + " " + pid + " " + epoch).getBytes(StandardCharsets.UTF_8);
  }

  static LeaderInfo decode(byte[] bytes) {
    String[] fields = new String(bytes, StandardCharsets.UTF_8).trim().split(" ");
    return new LeaderInfo(
        HostAndPort.parse("the leader node", fields[0]),
        Long.parseLong(fields[1]),
        Long.parseLong(fields[2]));
  }
}
