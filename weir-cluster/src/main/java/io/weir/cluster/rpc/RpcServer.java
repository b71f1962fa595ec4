package io.weir.cluster.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;

/**
 * Accepts connections on one address. Every connection must first present a {@link Handshake.Hello}
 * with a known role and the shared secret; a wrong one gets a {@link Handshake.Refused} naming the
 * cause, then the connection is closed.
 */
public final class RpcServer implements AutoCloseable {
  private final Channel serverChannel;

  private RpcServer(Channel serverChannel) {
    this.serverChannel = serverChannel;
  }

  /**
   * Binds to {@code host:port} (port 0 picks a free one).
   *
   * @param handlers the handler of each accepted role
   */
  public static RpcServer bind(
      EventLoopGroup group,
      String host,
      int port,
      String secret,
      Map<String, MessageHandler> handlers)
      throws ClusterConnectException {
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    Pipelines.addCodec(channel.pipeline());
                    channel.pipeline().addLast("handshake", new HandshakeCheck(secret, handlers));
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

  /** Lets a connection through to its role's handler only after a valid hello. */
  private static final class HandshakeCheck extends ChannelInboundHandlerAdapter {
    private final String secret;
    private final Map<String, MessageHandler> handlers;

    HandshakeCheck(String secret, Map<String, MessageHandler> handlers) {
      this.secret = secret == null ? "" : secret;
      this.handlers = handlers;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      String refusal = refusalOf(message);
      if (refusal != null) {
        context
            .writeAndFlush(new Handshake.Refused(refusal))
            .addListener(ChannelFutureListener.CLOSE);
        return;
      }
      MessageHandler handler = handlers.get(((Handshake.Hello) message).role());
      context.pipeline().replace(this, "dispatch", new Pipelines.Dispatch(handler));
      context.writeAndFlush(new Handshake.Welcome());
    }

    private String refusalOf(Object message) {
      if (!(message instanceof Handshake.Hello hello)) {
        return "the first message must be a hello";
      }
      if (!Objects.equals(secret, hello.secret() == null ? "" : hello.secret())) {
        return hello.secret() == null || hello.secret().isEmpty()
            ? "this cluster requires a secret (cluster.secret in conf/weir.yaml or --secret)"
            : "wrong secret";
      }
      if (!handlers.containsKey(hello.role())) {
        return "unknown role '" + hello.role() + "'";
      }
      return null;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close();
    }
  }
}
