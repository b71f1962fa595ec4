package io.weir.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.monitor.KafkaMonitor;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server without a job: access with a cluster secret, taken ports, the dashboard's files. */
class WebServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void when_dashboardHasAToken_then_apiAndMetricsNeedItInTheHeaderAndTheDashboardIsToldSo()
      throws Exception {
    // given
    try (WebServer server = start(new WebServerOptions("127.0.0.1", 0, "t0ken"))) {
      // when / then
      HttpResponse<String> refused = get(server, "/api/v1/jobs", null);
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(refused.body()).contains("This dashboard needs its token");
      assertThat(get(server, "/metrics", null).statusCode()).isEqualTo(401);
      assertThat(get(server, "/api/v1/jobs", "wrong").statusCode()).isEqualTo(401);
      HttpResponse<String> allowed = get(server, "/api/v1/jobs", "t0ken");
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("{\"jobs\":[]}");
      // a token in the URL would stay in histories and proxy logs: refused
      assertThat(get(server, "/api/v1/jobs?token=t0ken", null).statusCode()).isEqualTo(401);
      assertThat(get(server, "/metrics?token=t0ken", null).statusCode()).isEqualTo(401);
      assertThat(get(server, "/api/v1/access", null).body()).contains("\"tokenRequired\":true");
      assertThat(get(server, "/", null).body()).contains("dashboard.js");
    }
  }

  @Test
  void when_noSecret_then_everythingAnswersAndTheChartsLibraryIsServed() throws Exception {
    try (WebServer server = start(new WebServerOptions("127.0.0.1", 0, ""))) {
      assertThat(get(server, "/api/v1/access", null).body()).contains("\"tokenRequired\":false");
      assertThat(get(server, "/metrics", null).statusCode()).isEqualTo(200);
      HttpResponse<String> uplot = get(server, "/webjars/uplot/uPlot.iife.min.js", null);
      assertThat(uplot.statusCode()).isEqualTo(200);
      assertThat(uplot.body()).contains("uPlot");
      assertThat(get(server, "/dashboard/../../etc/passwd", null).statusCode()).isEqualTo(404);
      assertThat(get(server, "/api/v1/nothing", null).statusCode()).isEqualTo(404);
    }
  }

  @Test
  void when_portIsTaken_then_theServerSaysSoAndListensElsewhere() throws Exception {
    // given: another program holds the port
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      List<String> said = new ArrayList<>();
      // when
      try (WebServer server =
          WebServer.start(
              new WebServerOptions("127.0.0.1", port, ""),
              new LocalJobs(),
              KafkaMonitor.NONE,
              said::add)) {
        // then
        assertThat(server.port()).isNotEqualTo(port);
        assertThat(said)
            .containsExactly(
                "port "
                    + port
                    + " is taken; the dashboard listens on 127.0.0.1:"
                    + server.port()
                    + " instead");
      }
      // and without a fallback, the taken port is an error naming it
      assertThatThrownBy(
              () ->
                  WebServer.start(
                      new WebServerOptions("127.0.0.1", port, ""),
                      new LocalJobs(),
                      KafkaMonitor.NONE,
                      null))
          .isInstanceOf(BindException.class)
          .hasMessageContaining("127.0.0.1:" + port);
    }
  }

  private static WebServer start(WebServerOptions options) throws Exception {
    return WebServer.start(options, new LocalJobs(), KafkaMonitor.NONE, null);
  }

  private HttpResponse<String> get(WebServer server, String path, String token) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
