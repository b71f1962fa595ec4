package io.weir.cluster.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Accepts connections on one address. Every connection must first pass the {@link Handshake}: a
 * known role and a proof of that role's secret; a wrong one gets a refusal naming the cause, then
 * the connection is closed. No message of a connection is decoded before it passed.
 */
public final class RpcServer implements AutoCloseable {
  private final Channel serverChannel;

  private RpcServer(Channel serverChannel) {
    this.serverChannel = serverChannel;
  }

  /** Binds to {@code host:port} without TLS, every role proven with the same secret. */
  public static RpcServer bind(
      EventLoopGroup group,
      String host,
      int port,
      String secret,
      Map<String, MessageHandler> handlers)
      throws ClusterConnectException {
    Map<String, RoleAccess> roles = new HashMap<>();
    handlers.forEach(
        (role, handler) ->
            roles.put(
                role,
                new RoleAccess(secret, "cluster.secret in conf/weir.yaml or --secret", handler)));
    return bind(group, host, port, ClusterTls.plaintext(), roles);
  }

  /**
   * Binds to {@code host:port} (port 0 picks a free one).
   *
   * @param tls whether accepted connections run over TLS (before the handshake)
   * @param roles the accepted roles: the secret each must prove, and its handler
   */
  public static RpcServer bind(
      EventLoopGroup group, String host, int port, ClusterTls tls, Map<String, RoleAccess> roles)
      throws ClusterConnectException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    tls.secureAccepted(channel);
                    Pipelines.addHandshake(channel.pipeline(), new ServerHandshake(roles));
                  }
                });
    try {
      Channel channel = bootstrap.bind(host, port).sync().channel();
      return new RpcServer(channel);
    } catch (Exception e) {
      throw new ClusterConnectException("Cannot listen on " + host + ":" + port + ": " + e, e);
    }
  }

  public int port() {
    return ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  @Override
  public void close() {
    serverChannel.close().awaitUninterruptibly();
  }
}
