package io.weir.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.List;

/**
 * Turns a frame into a message and back with Java serialization. Only the cluster's own message
 * records travel this way (records of user types travel inside {@code DataFrame} payloads, encoded
 * by the sending task), so the classes come from this module's class loader and pass the {@link
 * ClassAllowlist} of control messages. It is installed only once the peer is authenticated; before
 * that, the connection reads nothing but the {@link Handshake}'s fixed-layout frames.
 */
public final class MessageCodec extends MessageToMessageCodec<ByteBuf, Serializable> {
  @Override
  protected void encode(ChannelHandlerContext context, Serializable message, List<Object> out)
      throws IOException {
    ByteBuf buffer = context.alloc().buffer();
    try (ObjectOutputStream stream = new ObjectOutputStream(new ByteBufOutputStream(buffer))) {
      stream.writeObject(message);
    } catch (IOException | RuntimeException e) {
      buffer.release();
      throw e;
    }
    out.add(buffer);
  }

  @Override
  protected void decode(ChannelHandlerContext context, ByteBuf frame, List<Object> out)
      throws IOException, ClassNotFoundException {
    try (ObjectInputStream stream =
        new LoaderObjectInputStream(
            new ByteBufInputStream(frame),
            MessageCodec.class.getClassLoader(),
            ClassAllowlist.controlMessages())) {
      out.add(stream.readObject());
    }
  }

  /** Resolves classes with a given loader, whatever thread decodes, and only allowed ones. */
  public static final class LoaderObjectInputStream extends ObjectInputStream {
    private final ClassLoader loader;

    public LoaderObjectInputStream(InputStream in, ClassLoader loader, ObjectInputFilter allowed)
        throws IOException {
      super(in);
      this.loader = loader;
      setObjectInputFilter(allowed);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass description)
        throws IOException, ClassNotFoundException {
      try {
        return Class.forName(description.getName(), false, loader);
      } catch (ClassNotFoundException e) {
        return super.resolveClass(description);
      }
    }
  }
}
