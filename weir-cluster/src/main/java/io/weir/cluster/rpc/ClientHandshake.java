package io.weir.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.weir.cluster.rpc.Handshake.Challenge;
import io.weir.cluster.rpc.Handshake.HandshakeException;
import io.weir.cluster.rpc.Handshake.Hello;
import io.weir.cluster.rpc.Handshake.Proof;
import io.weir.cluster.rpc.Handshake.Refused;
import io.weir.cluster.rpc.Handshake.SecretPresence;
import io.weir.cluster.rpc.Handshake.Verdict;
import io.weir.cluster.rpc.Handshake.Welcome;
import java.util.concurrent.CompletableFuture;

/**
 * The connecting side of the {@link Handshake}: says hello when connected, proves the secret when
 * challenged, and checks the accepting side's proof in its welcome before handing the connection to
 * the handler. Completes the outcome with the connection, or exceptionally with the refusal or the
 * failure. Lives on the connection's event loop. AWAITING_CHALLENGE -> AWAITING_VERDICT ->
 * (replaced by the dispatch).
 */
final class ClientHandshake extends ChannelInboundHandlerAdapter {
  private enum Step {
    AWAITING_CHALLENGE,
    AWAITING_VERDICT
  }

  private final String role;
  private final String secret;
  private final SecretProofs proofs;
  private final MessageHandler handler;
  private final CompletableFuture<Outcome> outcome;
  private final byte[] clientNonce = SecretProofs.newNonce();
  private Step step = Step.AWAITING_CHALLENGE;
  private byte[] serverNonce;

  /** How the handshake ended: admitted, refused with a reason, or not a proper peer. */
  sealed interface Outcome permits Admitted, Denied, Unproven {}

  record Admitted(RpcConnection connection) implements Outcome {}

  record Denied(String reason) implements Outcome {}

  record Unproven(String problem) implements Outcome {}

  ClientHandshake(
      String role, String secret, MessageHandler handler, CompletableFuture<Outcome> outcome) {
    this.role = role;
    this.secret = secret;
    this.proofs = new SecretProofs(secret);
    this.handler = handler;
    this.outcome = outcome;
  }

  @Override
  public void channelActive(ChannelHandlerContext context) {
    Hello hello = new Hello(role, SecretPresence.of(secret), clientNonce);
    context.writeAndFlush(hello.encode(context.alloc()));
    context.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    ByteBuf frame = (ByteBuf) message;
    try {
      switch (step) {
        case AWAITING_CHALLENGE -> {
          // A refusal of the hello (unknown role, missing secret) comes instead of a challenge.
          if (Handshake.isRefusal(frame)) {
            onVerdict(context, Verdict.decode(frame));
          } else {
            onChallenge(context, Challenge.decode(frame));
          }
        }
        case AWAITING_VERDICT -> onVerdict(context, Verdict.decode(frame));
      }
    } catch (HandshakeException e) {
      finish(context, new Unproven(e.getMessage()));
    } finally {
      ReferenceCountUtil.release(frame);
    }
  }

  private void onChallenge(ChannelHandlerContext context, Challenge challenge) {
    serverNonce = challenge.serverNonce();
    step = Step.AWAITING_VERDICT;
    byte[] proof = proofs.clientProof(role, clientNonce, serverNonce);
    context.writeAndFlush(new Proof(proof).encode(context.alloc()));
  }

  private void onVerdict(ChannelHandlerContext context, Verdict verdict) {
    if (verdict instanceof Refused refused) {
      finish(context, new Denied(refused.reason()));
      return;
    }
    byte[] expected = proofs.serverProof(role, clientNonce, serverNonce);
    if (!SecretProofs.matches(expected, ((Welcome) verdict).serverProof())) {
      finish(context, new Unproven("it did not prove it knows the cluster's secret"));
      return;
    }
    Pipelines.admit(context.pipeline(), this, handler);
    outcome.complete(new Admitted(RpcConnection.of(context.channel())));
  }

  private void finish(ChannelHandlerContext context, Outcome ending) {
    outcome.complete(ending);
    context.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext context) {
    outcome.complete(new Unproven("it closed the connection"));
    context.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    outcome.complete(new Unproven(cause.toString()));
    context.close();
  }
}
