package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.runtime.startup.BesideStartStatus;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A task manager as the job manager knows it; the heartbeat time is updated by network threads. */
final class RegisteredTaskManager {
  final String id;
  final int slots;
  final HostAndPort dataAddress;
  final long pid;
  final TaskManagerConnection connection;
  volatile long lastHeartbeatMillis;
  // The SHA-256 of every job jar it deployed from: it caches them, so they are not sent again.
  final Set<String> jarsHeld = ConcurrentHashMap.newKeySet();
  // What each attempt's subtasks there may still do beside their start, as its latest heartbeat
  // said; kept for attempts no longer reported, as a heartbeat leaves out an attempt that ended.
  final Map<AttemptId, BesideStartStatus> besideStart = new ConcurrentHashMap<>();
  // The attempts told to start their subtasks there: only their subtasks can have begun work
  // beside a start. Marked before the message is sent, so that a loss declared meanwhile counts it.
  final Set<AttemptId> startsSent = ConcurrentHashMap.newKeySet();

  RegisteredTaskManager(
      String id,
      int slots,
      HostAndPort dataAddress,
      long pid,
      TaskManagerConnection connection,
      long nowMillis) {
    this.id = id;
    this.slots = slots;
    this.dataAddress = dataAddress;
    this.pid = pid;
    this.connection = connection;
    this.lastHeartbeatMillis = nowMillis;
  }
}
