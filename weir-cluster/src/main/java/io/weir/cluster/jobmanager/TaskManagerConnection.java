package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.RpcConnection;
import java.io.Serializable;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job manager's side of one task manager's control connection. Every message goes out with the
 * leader epoch the task manager registered in, and none goes out once this job manager is no longer
 * the leader; the task manager refuses the epochs older than the newest it knows, which covers what
 * is already on its way. Thread safe.
 */
final class TaskManagerConnection {
  private static final Logger LOG = LoggerFactory.getLogger(TaskManagerConnection.class);

  private final RpcConnection connection;
  private final long epoch;
  private final BooleanSupplier leading;

  TaskManagerConnection(RpcConnection connection, long epoch, BooleanSupplier leading) {
    this.connection = connection;
    this.epoch = epoch;
    this.leading = leading;
  }

  /** Sends without waiting; dropped when the connection is closed or the leadership is lost. */
  void send(Serializable message) {
    if (!leading.getAsBoolean()) {
      LOG.warn("Not the leader any more: not sending {}", message.getClass().getSimpleName());
      return;
    }
    connection.send(new ControlMessages.Fenced(epoch, message));
  }

  void close() {
    connection.close();
  }
}
