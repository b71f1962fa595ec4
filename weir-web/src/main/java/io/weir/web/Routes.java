package io.weir.web;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * What each path answers: the dashboard's files to anyone who can reach the server, the API and
 * metrics only with the dashboard's token when the cluster has a secret, in the {@code
 * Authorization: Bearer TOKEN} header. Never in the URL: a URL ends up in browser histories, proxy
 * logs and {@code Referer} headers.
 */
final class Routes {
  static final String ACCESS = ApiRoutes.PREFIX + "access";

  private final ApiRoutes api;
  private final ControlRoutes control;
  private final StaticAssets assets;
  private final PrometheusRegistry registry;
  private final CheckpointHistograms histograms;
  private final byte[] token;
  private final PrometheusTextFormatWriter metricsFormat = PrometheusTextFormatWriter.create();

  Routes(
      ApiRoutes api,
      ControlRoutes control,
      StaticAssets assets,
      PrometheusRegistry registry,
      CheckpointHistograms histograms,
      String token) {
    this.api = api;
    this.control = control;
    this.assets = assets;
    this.registry = registry;
    this.histograms = histograms;
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  Response answer(QueryStringDecoder uri, String authorization) throws Exception {
    return answer(uri, authorization, null, null);
  }

  /**
   * The answer to a GET, or with {@code body} (null for a GET) to a POST, which only the API's
   * control requests take, with the same token as the rest of the API.
   */
  Response answer(QueryStringDecoder uri, String authorization, String contentType, byte[] body)
      throws Exception {
    String path = uri.path();
    if (path.equals(ACCESS)) {
      return api.access();
    }
    boolean protectedPath = path.startsWith(ApiRoutes.PREFIX) || path.equals("/metrics");
    if (protectedPath && !authorized(authorization)) {
      return api.error(
          HttpResponseStatus.UNAUTHORIZED,
          "This dashboard needs its token in the Authorization: Bearer header"
              + " (weir cluster dashboard-token prints it)");
    }
    if (body != null) {
      return path.startsWith(ApiRoutes.PREFIX)
          ? control.answer(path, contentType, body)
          : Response.text(HttpResponseStatus.METHOD_NOT_ALLOWED, "POST only under /api/v1/");
    }
    if (path.startsWith(ApiRoutes.PREFIX)) {
      return api.answer(path);
    }
    if (path.equals("/metrics")) {
      return metrics();
    }
    Response asset = assets.answer(path);
    return asset != null ? asset : Response.text(HttpResponseStatus.NOT_FOUND, "No page " + path);
  }

  private Response metrics() throws Exception {
    histograms.observeNew();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    metricsFormat.write(out, registry.scrape());
    return new Response(HttpResponseStatus.OK, metricsFormat.getContentType(), out.toByteArray());
  }

  private boolean authorized(String authorization) {
    if (token.length == 0) {
      return true;
    }
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      return false;
    }
    String given = authorization.substring("Bearer ".length()).trim();
    // Constant time: the comparison must not tell how much of a guess was right.
    return MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
  }
}
