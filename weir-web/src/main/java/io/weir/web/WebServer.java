package io.weir.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.weir.runtime.monitor.JobControl;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.KafkaMonitor;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The job manager's HTTP server: REST API under {@code /api/v1/}, the dashboard at {@code /}, and
 * Prometheus metrics at {@code /metrics}, all read from one {@link JobMonitor}. One event loop
 * thread for the connections and two request threads; nothing here runs on a task's thread, and the
 * tasks pay only for the counters they keep anyway.
 *
 * <p>Lifecycle: {@link #start} binds and serves until {@link #close}; close is idempotent.
 */
public final class WebServer implements AutoCloseable {
  private static final long KAFKA_STATUS_MAX_AGE_MILLIS = 1000;
  private static final int MAX_REQUEST_BYTES = 64 * 1024;
  private static final long REQUEST_DRAIN_SECONDS = 5;

  private final EventLoopGroup loop;
  private final ExecutorService requests;
  private final KafkaMonitor kafka;
  private final Channel channel;
  private final String host;

  private WebServer(
      EventLoopGroup loop,
      ExecutorService requests,
      KafkaMonitor kafka,
      Channel channel,
      String host) {
    this.loop = loop;
    this.requests = requests;
    this.kafka = kafka;
    this.channel = channel;
    this.host = host;
  }

  /**
   * Binds {@code options.port()}; when it is taken and {@code onPortTaken} is given, says so
   * through it and binds a free port instead (a local run must not fail because another program has
   * the default port).
   *
   * @param kafka closed with the server
   * @throws BindException when the port is taken and no fallback is wanted, or no port is free
   */
  public static WebServer start(
      WebServerOptions options,
      JobMonitor monitor,
      KafkaMonitor kafka,
      Consumer<String> onPortTaken)
      throws BindException, InterruptedException {
    return start(options, monitor, JobControl.NONE, kafka, onPortTaken);
  }

  /**
   * As {@link #start(WebServerOptions, JobMonitor, KafkaMonitor, Consumer)}, and the API's control
   * requests stop jobs through {@code control}.
   */
  public static WebServer start(
      WebServerOptions options,
      JobMonitor monitor,
      JobControl control,
      KafkaMonitor kafka,
      Consumer<String> onPortTaken)
      throws BindException, InterruptedException {
    Clock clock = Clock.systemUTC();
    ObjectMapper json = new ObjectMapper();
    KafkaStatusCache kafkaStatus = new KafkaStatusCache(kafka, clock, KAFKA_STATUS_MAX_AGE_MILLIS);
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new JobMetrics(monitor, kafkaStatus));
    ApiRoutes api = new ApiRoutes(monitor, kafkaStatus, json, clock, options.requiresToken());
    Routes routes =
        new Routes(
            api,
            new ControlRoutes(control, api, json),
            new StaticAssets(),
            registry,
            new CheckpointHistograms(monitor, registry),
            options.token());
    EventLoopGroup loop =
        new MultiThreadIoEventLoopGroup(1, daemon("weir web"), NioIoHandler.newFactory());
    ExecutorService requests = Executors.newFixedThreadPool(2, daemon("weir web request"));
    HttpRequests handler = new HttpRequests(routes, requests);
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(loop)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                        .addLast(handler);
                  }
                });
    try {
      Channel channel = bind(bootstrap, options.host(), options.port(), onPortTaken);
      return new WebServer(loop, requests, kafka, channel, options.host());
    } catch (BindException | InterruptedException | RuntimeException e) {
      requests.shutdownNow();
      loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw e;
    }
  }

  private static Channel bind(
      ServerBootstrap bootstrap, String host, int port, Consumer<String> onPortTaken)
      throws BindException, InterruptedException {
    try {
      return bootstrap.bind(host, port).sync().channel();
    } catch (Exception e) {
      if (!(e instanceof BindException)) {
        throw e;
      }
      if (onPortTaken == null || port == 0) {
        throw new BindException(
            "The dashboard cannot listen on " + host + ":" + port + ": " + e.getMessage());
      }
      Channel channel = bootstrap.bind(host, 0).sync().channel();
      onPortTaken.accept(
          "port "
              + port
              + " is taken; the dashboard listens on "
              + host
              + ":"
              + ((InetSocketAddress) channel.localAddress()).getPort()
              + " instead");
      return channel;
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** The dashboard's address, for people. */
  public String url() {
    String shown = host.contains(":") ? "[" + host + "]" : host;
    return "http://" + shown + ":" + port() + "/";
  }

  @Override
  public void close() {
    channel.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
    // A stop request answers as its job ends, which is when a local run closes this server: the
    // answer in flight is written before the connections close.
    requests.shutdown();
    try {
      requests.awaitTermination(REQUEST_DRAIN_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    requests.shutdownNow();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    kafka.close();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
