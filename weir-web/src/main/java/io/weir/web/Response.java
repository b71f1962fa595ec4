package io.weir.web;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/** One answer of the server: status, content type and body. */
record Response(HttpResponseStatus status, String contentType, byte[] body) {
  static final String JSON = "application/json; charset=utf-8";
  static final String TEXT = "text/plain; charset=utf-8";

  static Response json(byte[] body) {
    return new Response(HttpResponseStatus.OK, JSON, body);
  }

  static Response text(HttpResponseStatus status, String text) {
    return new Response(status, TEXT, text.getBytes(StandardCharsets.UTF_8));
  }
}
