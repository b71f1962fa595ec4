package io.weir.cli.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.cli.error.UserError;
import io.weir.runtime.execution.LocalJobs;
import io.weir.web.WebServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A local run's dashboard comes up beside its job, and says where once it listens. */
class DashboardBesideJobTest {
  private static final Pattern ADDRESS = Pattern.compile("dashboard: (http://\\S+/)");

  @Test
  void when_started_then_itPrintsItsAddressOnceListeningAndCloseStopsIt() throws Exception {
    // given
    WebOptions web = new WebOptions();
    web.port = 0;
    LocalJobs jobs = new LocalJobs();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    // when: the call returns before the server is up; its address comes once it listens
    DashboardBesideJob dashboard =
        Dashboard.startBesideJob(
            web, web.toServerOptions(WebServerOptions.DEFAULT_HOST, ""), jobs, jobs, out);
    Matcher address = ADDRESS.matcher("");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> address.reset(printed.toString(StandardCharsets.UTF_8)).find());
    URI jobList = URI.create(address.group(1) + "api/v1/jobs");

    // then
    HttpClient http = HttpClient.newHttpClient();
    assertThat(get(http, jobList).statusCode()).isEqualTo(200);
    dashboard.close();
    assertThatThrownBy(() -> get(http, jobList)).isInstanceOf(IOException.class);
  }

  @Test
  void when_theServerCannotStart_then_itSaysSoAndCloseReturns() {
    // given
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    // when
    DashboardBesideJob dashboard =
        DashboardBesideJob.start(
            () -> {
              throw new UserError("The dashboard cannot listen on 127.0.0.1:0: no port is free");
            },
            out);
    dashboard.close();

    // then
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains(
            "dashboard: The dashboard cannot listen on 127.0.0.1:0: no port is free; the job runs"
                + " without it");
  }

  private static HttpResponse<String> get(HttpClient http, URI uri)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
