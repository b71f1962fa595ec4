package io.weir.cluster.rpc;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.io.Serializable;

/** One established, handshaken connection; thread safe. */
public final class RpcConnection {
  private static final AttributeKey<RpcConnection> KEY = AttributeKey.valueOf("weir.connection");

  private final Channel channel;

  private RpcConnection(Channel channel) {
    this.channel = channel;
  }

  static RpcConnection of(Channel channel) {
    RpcConnection existing = channel.attr(KEY).get();
    if (existing != null) {
      return existing;
    }
    RpcConnection created = new RpcConnection(channel);
    RpcConnection raced = channel.attr(KEY).setIfAbsent(created);
    return raced == null ? created : raced;
  }

  /** Sends without waiting; a message to a closed connection is dropped. */
  public void send(Serializable message) {
    channel.writeAndFlush(message);
  }

  /** Sends and waits until the message was written to the network (or the connection failed). */
  public void sendAndWait(Serializable message) throws InterruptedException {
    channel.writeAndFlush(message).await();
  }

  public boolean isOpen() {
    return channel.isActive();
  }

  public void close() {
    channel.close();
  }

  /** The peer's address, for messages. */
  public String remote() {
    return String.valueOf(channel.remoteAddress());
  }

  @Override
  public String toString() {
    return "connection to " + remote();
  }
}
