package io.weir.cluster.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Opens connections to a cluster process and does the handshake. */
public final class RpcClient {
  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

  private RpcClient() {}

  /**
   * Connects, presents {@code role} and {@code secret}, and returns once welcomed.
   *
   * @param peer what the address is, for errors: "the job manager"
   * @throws ClusterConnectException naming the peer, its address and the cause
   */
  public static RpcConnection connect(
      EventLoopGroup group,
      String peer,
      HostAndPort address,
      String role,
      String secret,
      MessageHandler handler)
      throws ClusterConnectException, InterruptedException {
    CompletableFuture<Object> answer = new CompletableFuture<>();
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    Pipelines.addCodec(channel.pipeline());
                    channel.pipeline().addLast("handshake", new AwaitWelcome(answer, handler));
                  }
                });
    Channel channel;
    try {
      channel = bootstrap.connect(address.host(), address.port()).sync().channel();
    } catch (Exception e) {
      throw new ClusterConnectException(
          "Cannot reach " + peer + " at " + address + ": " + describe(e), e);
    }
    channel.writeAndFlush(new Handshake.Hello(role, secret == null ? "" : secret));
    Object reply;
    try {
      reply = answer.get(CONNECT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      channel.close();
      throw new ClusterConnectException(
          "No answer from " + peer + " at " + address + " (is it a Weir cluster process?)", e);
    }
    if (reply instanceof Handshake.Refused refused) {
      channel.close();
      throw ClusterConnectException.refused(
          peer.substring(0, 1).toUpperCase()
              + peer.substring(1)
              + " at "
              + address
              + " refused the connection: "
              + refused.reason());
    }
    return RpcConnection.of(channel);
  }

  private static String describe(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    return message == null ? cause.getClass().getSimpleName() : message;
  }

  /** Completes the answer with the welcome or refusal, then hands over to the handler. */
  private static final class AwaitWelcome extends ChannelInboundHandlerAdapter {
    private final CompletableFuture<Object> answer;
    private final MessageHandler handler;

    AwaitWelcome(CompletableFuture<Object> answer, MessageHandler handler) {
      this.answer = answer;
      this.handler = handler;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      if (message instanceof Handshake.Welcome) {
        context.pipeline().replace(this, "dispatch", new Pipelines.Dispatch(handler));
      }
      answer.complete(message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
      answer.completeExceptionally(new IllegalStateException("connection closed"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      answer.completeExceptionally(cause);
      context.close();
    }
  }
}
