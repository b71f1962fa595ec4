package io.weir.cluster.rpc;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldPrepender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handlers of every connection: length-prefixed frames, first of the {@link Handshake} only,
 * then (once admitted) of serialized messages handed to the role's handler.
 */
final class Pipelines {
  private static final Logger LOG = LoggerFactory.getLogger(Pipelines.class);

  private Pipelines() {}

  /** A new connection: small frames, read by the handshake handler alone. */
  static void addHandshake(ChannelPipeline pipeline, ChannelHandler handshake) {
    pipeline.addLast("frames", new Frames());
    pipeline.addLast("length", new LengthFieldPrepender(4));
    pipeline.addLast("handshake", handshake);
  }

  /**
   * The peer is authenticated: lifts the frame limit, installs the message codec and the dispatch
   * to {@code handler}, and removes the handshake handler. Called on the event loop, from the
   * handshake handler, so the next frame already goes to the codec.
   */
  static void admit(ChannelPipeline pipeline, ChannelHandler handshake, MessageHandler handler) {
    pipeline.get(Frames.class).allowMessages();
    pipeline.addAfter("handshake", "messages", new MessageCodec());
    pipeline.addAfter("messages", "dispatch", new Dispatch(handler));
    pipeline.remove(handshake);
  }

  /** Hands messages to the handler once the handshake is done. */
  static final class Dispatch extends ChannelInboundHandlerAdapter {
    private final MessageHandler handler;

    Dispatch(MessageHandler handler) {
      this.handler = handler;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      handler.onMessage(RpcConnection.of(context.channel()), message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
      handler.onClosed(RpcConnection.of(context.channel()));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      // A peer that dies mid-frame or resets the connection is normal in a cluster; a message the
      // allowlist refuses ends the connection too.
      LOG.debug("Closing {} after {}", context.channel().remoteAddress(), cause.toString());
      context.close();
    }
  }
}
