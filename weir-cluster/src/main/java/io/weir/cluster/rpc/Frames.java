package io.weir.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits the byte stream into frames behind a 4-byte length. The limit starts at the handshake's
 * and is raised only once the peer proved it knows the secret, so a stranger's length prefix can
 * never make this process buffer more than a handshake frame. Runs on the connection's event loop
 * only (so does {@link #allowMessages()}).
 */
final class Frames extends ByteToMessageDecoder {
  /** Large enough for a batch of big records or a job jar; a bigger frame is a protocol error. */
  static final int MAX_MESSAGE_BYTES = 256 << 20;

  private int maxFrameBytes = Handshake.MAX_FRAME_BYTES;

  /** The peer is authenticated: frames up to the message limit are accepted from now on. */
  void allowMessages() {
    maxFrameBytes = MAX_MESSAGE_BYTES;
  }

  @Override
  protected void decode(ChannelHandlerContext context, ByteBuf in, List<Object> out)
      throws TooLongFrameException {
    if (in.readableBytes() < 4) {
      return;
    }
    int length = in.getInt(in.readerIndex());
    if (length < 0 || length > maxFrameBytes) {
      in.skipBytes(in.readableBytes());
      throw new TooLongFrameException(
          "A frame of " + length + " bytes is over the limit of " + maxFrameBytes);
    }
    if (in.readableBytes() < 4 + length) {
      return;
    }
    in.skipBytes(4);
    out.add(in.readRetainedSlice(length));
  }
}
