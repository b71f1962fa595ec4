package io.weir.cluster.rpc;

/**
 * Receives the messages of connections. Called on a network thread, in the order the messages were
 * sent on one connection; must not block (hand long work to another thread).
 */
public interface MessageHandler {
  void onMessage(RpcConnection connection, Object message);

  /** The connection closed (by either side, or because the peer died); called once. */
  default void onClosed(RpcConnection connection) {}
}
