package io.weir.cluster.exchange;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.MessageHandler;
import io.weir.cluster.rpc.RpcClient;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.exchange.RecordEncoding;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sending side of the exchange for one attempt on one task manager: one data connection per
 * receiving task manager, shared by all channels to it, and the credits coming back on it. Closed
 * when the attempt ends.
 */
public final class OutboundChannels implements MessageHandler, AutoCloseable {
  /**
   * Batches in flight per channel; with the receiver's gate this bounds what a channel buffers, and
   * the receiver's adaptive credit counts them in what its gate's budget is shared by.
   */
  public static final int CREDITS_PER_CHANNEL = 4;

  private final AttemptId attempt;
  private final EventLoopGroup group;
  private final String secret;
  private final ClusterTls tls;
  private final Map<HostAndPort, RpcConnection> connections = new HashMap<>();
  private final Map<ChannelKey, RemoteChannel> channels = new ConcurrentHashMap<>();

  private record ChannelKey(String vertexId, int subtask, int channel) {}

  public OutboundChannels(AttemptId attempt, EventLoopGroup group, String secret) {
    this(attempt, group, secret, ClusterTls.plaintext());
  }

  public OutboundChannels(AttemptId attempt, EventLoopGroup group, String secret, ClusterTls tls) {
    this.attempt = attempt;
    this.group = group;
    this.secret = secret;
    this.tls = tls;
  }

  /**
   * The channel {@code channel} of subtask {@code subtask} of {@code vertexId}, at the task manager
   * listening on {@code address}, whose records it encodes as {@code encoding} says. Called while
   * deploying, before the tasks start.
   */
  public synchronized RemoteChannel channel(
      HostAndPort address, String vertexId, int subtask, int channel, RecordEncoding encoding)
      throws ClusterConnectException, InterruptedException {
    RpcConnection connection = connections.get(address);
    if (connection == null) {
      connection = RpcClient.connect(group, "the task manager", address, "data", secret, tls, this);
      connections.put(address, connection);
    }
    RemoteChannel remote =
        new RemoteChannel(attempt, vertexId, subtask, connection, CREDITS_PER_CHANNEL, encoding);
    channels.put(new ChannelKey(vertexId, subtask, channel), remote);
    return remote;
  }

  @Override
  public void onMessage(RpcConnection connection, Object message) {
    if (message instanceof DataMessages.Credit credit && credit.attempt().equals(attempt)) {
      RemoteChannel channel =
          channels.get(new ChannelKey(credit.vertexId(), credit.subtask(), credit.channel()));
      if (channel != null) {
        channel.onCredit(credit.recordsPerBatch());
      }
    }
  }

  @Override
  public synchronized void close() {
    connections.values().forEach(RpcConnection::close);
    connections.clear();
    channels.clear();
  }
}
