package io.weir.web;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dashboard's files, from the class path: its own pages under {@code /dashboard/}, and the
 * charting library from its WebJar under {@code /webjars/uplot/}. Read once, then served from
 * memory.
 */
final class StaticAssets {
  static final String UPLOT_VERSION = "1.6.30";
  private static final String OWN = "io/weir/web/dashboard/";
  private static final String UPLOT =
      "META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml");

  private final Map<String, Response> cache = new ConcurrentHashMap<>();

  /** The file for {@code path}, or null when there is none. */
  Response answer(String path) throws IOException {
    String resource;
    if (path.equals("/") || path.equals("/index.html")) {
      resource = OWN + "index.html";
    } else if (path.startsWith("/dashboard/")) {
      resource = OWN + path.substring("/dashboard/".length());
    } else if (path.startsWith("/webjars/uplot/")) {
      resource = UPLOT + path.substring("/webjars/uplot/".length());
    } else {
      return null;
    }
    if (resource.contains("..")) {
      return null;
    }
    Response cached = cache.get(resource);
    if (cached != null) {
      return cached;
    }
    try (InputStream in = StaticAssets.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      String extension = resource.substring(resource.lastIndexOf('.') + 1);
      Response response =
          new Response(
              HttpResponseStatus.OK,
              TYPES.getOrDefault(extension, "application/octet-stream"),
              in.readAllBytes());
      cache.put(resource, response);
      return response;
    }
  }
}
