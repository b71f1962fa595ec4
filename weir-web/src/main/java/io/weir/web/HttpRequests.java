package io.weir.web;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers each decoded HTTP request on the request executor (never on Netty's event loop, since
 * asking a broker may take seconds) and writes the answer back. GET for everything the server
 * shows; POST only for the API's control requests (a stop with savepoint of a local run's job).
 */
@ChannelHandler.Sharable
final class HttpRequests extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(HttpRequests.class);

  /** As long as the server's close waits for request threads to end. */
  private static final long WRITE_WAIT_SECONDS = 5;

  private final Routes routes;
  private final Executor executor;

  HttpRequests(Routes routes, Executor executor) {
    this.routes = routes;
    this.executor = executor;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    boolean post = request.method().equals(HttpMethod.POST);
    if (!post && !request.method().equals(HttpMethod.GET)) {
      write(
          context, Response.text(HttpResponseStatus.METHOD_NOT_ALLOWED, "GET or POST"), keepAlive);
      return;
    }
    QueryStringDecoder uri = new QueryStringDecoder(request.uri());
    String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
    // The aggregated request is released when this method returns: the body is copied now.
    byte[] body = post ? ByteBufUtil.getBytes(request.content()) : null;
    try {
      executor.execute(
          () -> {
            Response response;
            try {
              response = routes.answer(uri, authorization, contentType, body);
            } catch (Exception | LinkageError e) {
              LOG.warn("Request {} failed", request.uri(), e);
              response = Response.text(HttpResponseStatus.INTERNAL_SERVER_ERROR, e.toString());
            }
            // The server's close waits for these threads, not for the event loop's queue, and
            // closes every connection as the loop shuts down: a stop's answer, written as its
            // job ends (when a local run closes the server), is on the wire before this ends.
            write(context, response, keepAlive)
                .awaitUninterruptibly(WRITE_WAIT_SECONDS, TimeUnit.SECONDS);
          });
    } catch (RejectedExecutionException e) {
      write(context, Response.text(HttpResponseStatus.SERVICE_UNAVAILABLE, "shutting down"), false);
    }
  }

  private static ChannelFuture write(
      ChannelHandlerContext context, Response response, boolean keepAlive) {
    FullHttpResponse http =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1, response.status(), Unpooled.wrappedBuffer(response.body()));
    http.headers()
        .set(HttpHeaderNames.CONTENT_TYPE, response.contentType())
        .setInt(HttpHeaderNames.CONTENT_LENGTH, response.body().length)
        .set(HttpHeaderNames.CACHE_CONTROL, "no-store");
    if (keepAlive) {
      HttpUtil.setKeepAlive(http, true);
      return context.writeAndFlush(http);
    }
    return context.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    LOG.debug("HTTP connection failed", cause);
    context.close();
  }
}
