package io.weir.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.weir.cluster.rpc.Handshake.Challenge;
import io.weir.cluster.rpc.Handshake.HandshakeException;
import io.weir.cluster.rpc.Handshake.Hello;
import io.weir.cluster.rpc.Handshake.Proof;
import io.weir.cluster.rpc.Handshake.Refused;
import io.weir.cluster.rpc.Handshake.SecretPresence;
import io.weir.cluster.rpc.Handshake.Welcome;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side of the {@link Handshake}: reads only handshake frames, and lets the connection
 * through to its role's handler (installing the message codec) only after a valid proof. Anything
 * else closes the connection: a frame out of order or layout, a wrong proof (after a refusal naming
 * the cause), or a peer that does not finish within the timeout. Each role is proven with its own
 * secret (see {@link RoleAccess}). Lives on the connection's event loop. AWAITING_HELLO ->
 * AWAITING_PROOF -> (replaced by the dispatch).
 */
final class ServerHandshake extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ServerHandshake.class);

  /**
   * A peer that has not proven itself by then is closed, so strangers cannot hold connections for
   * long. Generous, because a freshly started process on a loaded machine loads the classes of
   * every step (the MAC, the random source) on the way.
   */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private enum Step {
    AWAITING_HELLO,
    AWAITING_PROOF
  }

  private final Map<String, RoleAccess> roles;
  private final byte[] serverNonce = SecretProofs.newNonce();
  private Step step = Step.AWAITING_HELLO;
  private Hello hello;
  private SecretProofs proofs;
  private ScheduledFuture<?> timeout;

  ServerHandshake(Map<String, RoleAccess> roles) {
    this.roles = roles;
  }

  @Override
  public void channelActive(ChannelHandlerContext context) {
    timeout =
        context
            .executor()
            .schedule(
                () -> closeStranger(context, "no handshake within " + TIMEOUT.toSeconds() + " s"),
                TIMEOUT.toMillis(),
                TimeUnit.MILLISECONDS);
    context.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    ByteBuf frame = (ByteBuf) message;
    try {
      switch (step) {
        case AWAITING_HELLO -> onHello(context, Hello.decode(frame));
        case AWAITING_PROOF -> onProof(context, Proof.decode(frame));
      }
    } catch (HandshakeException e) {
      closeStranger(context, e.getMessage());
    } finally {
      ReferenceCountUtil.release(frame);
    }
  }

  private void onHello(ChannelHandlerContext context, Hello received) {
    RoleAccess access = roles.get(received.role());
    if (access == null) {
      refuse(context, "unknown role '" + received.role() + "'");
      return;
    }
    if (SecretPresence.of(access.secret()) == SecretPresence.PRESENTED
        && received.secretPresence() == SecretPresence.NONE) {
      refuse(context, "this cluster requires a secret (" + access.setting() + ")");
      return;
    }
    hello = received;
    proofs = new SecretProofs(access.secret());
    step = Step.AWAITING_PROOF;
    context.writeAndFlush(new Challenge(serverNonce).encode(context.alloc()));
  }

  private void onProof(ChannelHandlerContext context, Proof proof) {
    byte[] expected = proofs.clientProof(hello.role(), hello.clientNonce(), serverNonce);
    if (!SecretProofs.matches(expected, proof.clientProof())) {
      refuse(context, "wrong secret");
      return;
    }
    timeout.cancel(false);
    byte[] serverProof = proofs.serverProof(hello.role(), hello.clientNonce(), serverNonce);
    context.writeAndFlush(new Welcome(serverProof).encode(context.alloc()));
    Pipelines.admit(context.pipeline(), this, roles.get(hello.role()).handler());
  }

  private void refuse(ChannelHandlerContext context, String reason) {
    LOG.info("Refused {}: {}", context.channel().remoteAddress(), reason);
    timeout.cancel(false);
    context
        .writeAndFlush(new Refused(reason).encode(context.alloc()))
        .addListener(ChannelFutureListener.CLOSE);
  }

  private void closeStranger(ChannelHandlerContext context, String reason) {
    LOG.info("Closed {} during the handshake: {}", context.channel().remoteAddress(), reason);
    context.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    if (timeout != null) {
      timeout.cancel(false);
    }
    context.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    closeStranger(context, cause.toString());
  }
}
