package io.weir.cluster.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
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
   * Connects, proves it knows {@code secret} as {@code role} (see {@link Handshake}), checks the
   * peer's proof, and returns once welcomed.
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
    return connect(group, peer, address, role, secret, ClusterTls.plaintext(), handler);
  }

  /**
   * As {@link #connect(EventLoopGroup, String, HostAndPort, String, String, MessageHandler)}, over
   * {@code tls}.
   */
  public static RpcConnection connect(
      EventLoopGroup group,
      String peer,
      HostAndPort address,
      String role,
      String secret,
      ClusterTls tls,
      MessageHandler handler)
      throws ClusterConnectException, InterruptedException {
    CompletableFuture<ClientHandshake.Outcome> outcome = new CompletableFuture<>();
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
                    tls.secureConnecting(channel, address);
                    Pipelines.addHandshake(
                        channel.pipeline(), new ClientHandshake(role, secret, handler, outcome));
                  }
                });
    Channel channel;
    try {
      channel = bootstrap.connect(address.host(), address.port()).sync().channel();
    } catch (Exception e) {
      throw new ClusterConnectException(
          "Cannot reach " + peer + " at " + address + ": " + describe(e), e);
    }
    ClientHandshake.Outcome ending;
    try {
      ending = outcome.get(ServerHandshake.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      channel.close();
      throw new ClusterConnectException(
          "No answer from " + peer + " at " + address + " (is it a Weir cluster process?)", e);
    }
    String where = capitalized(peer) + " at " + address;
    if (ending instanceof ClientHandshake.Admitted admitted) {
      return admitted.connection();
    }
    channel.close();
    if (ending instanceof ClientHandshake.Denied denied) {
      throw ClusterConnectException.refused(where + " refused the connection: " + denied.reason());
    }
    throw new ClusterConnectException(
        where
            + " failed the handshake (is it a Weir cluster process?): "
            + ((ClientHandshake.Unproven) ending).problem());
  }

  private static String capitalized(String text) {
    return text.substring(0, 1).toUpperCase() + text.substring(1);
  }

  private static String describe(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    return message == null ? cause.getClass().getSimpleName() : message;
  }
}
