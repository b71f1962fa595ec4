package io.weir.cluster.rpc;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The handlers every connection has: length-prefixed frames of serialized messages. */
final class Pipelines {
  private static final Logger LOG = LoggerFactory.getLogger(Pipelines.class);

  /** Large enough for a batch of big records; a bigger frame is a protocol error. */
  private static final int MAX_FRAME_BYTES = 256 << 20;

  private Pipelines() {}

  static void addCodec(ChannelPipeline pipeline) {
    pipeline.addLast("frames", new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4));
    pipeline.addLast("length", new LengthFieldPrepender(4));
    pipeline.addLast("messages", new MessageCodec());
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
      // A peer that dies mid-frame or resets the connection is normal in a cluster.
      LOG.debug("Closing {} after {}", context.channel().remoteAddress(), cause.toString());
      context.close();
    }
  }
}
