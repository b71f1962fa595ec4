package io.weir.cluster.rpc;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/** The network threads of a cluster process. */
public final class EventLoops {
  private EventLoops() {}

  /** A group of daemon network threads named after the process. */
  public static EventLoopGroup create(String name, int threads) {
    return new MultiThreadIoEventLoopGroup(
        threads, new DefaultThreadFactory(name, true), NioIoHandler.newFactory());
  }
}
