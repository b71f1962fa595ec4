package io.weir.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.monitor.KafkaMonitor;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's job page of a running job with a two-input task, in a real browser: the task's
 * box names each incoming edge with the input it feeds, as the plan does.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TwoInputDashboardTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Test
  void when_jobHasATwoInputTask_then_itsPageListsBothInputs() throws Exception {
    // given: orders connected with rates, running until cancelled
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    DataStream<Long> orders =
        env.addSource(new GeneratorSource<>(Long.MAX_VALUE, i -> i, 10)).name("Orders");
    DataStream<Long> rates =
        env.addSource(new GeneratorSource<>(Long.MAX_VALUE, i -> i, 10)).name("Rates");
    orders
        .connect(rates)
        .keyBy(order -> order % 5, rate -> rate % 5)
        .map(new PassBoth())
        .name("Enrich")
        .addSink(new DiscardingSink<>())
        .name("Out");
    LocalJobs jobs = new LocalJobs();
    JobClient job = new LocalJobExecutor(jobs).executeAsync(env.plan("enrichment"));
    WebServer server =
        WebServer.start(new WebServerOptions("127.0.0.1", 0, ""), jobs, KafkaMonitor.NONE, null);
    ChromeDriver browser = HeadlessChromium.start(Files.createTempDirectory("weir-chromium-"));
    try {
      // when
      browser.get("http://127.0.0.1:" + server.port() + "/#/jobs/local-1");
      WebDriverWait wait = new WebDriverWait(browser, PATIENCE);
      wait.ignoring(StaleElementReferenceException.class);
      List<WebElement> tasks =
          wait.until(
              ExpectedConditions.numberOfElementsToBe(By.cssSelector("#task-graph .task"), 3));

      // then: the sources have no inputs listed; the two-input task lists one edge per input
      WebElement enrich = tasks.get(2);
      assertThat(texts(enrich, ".operator")).containsExactly("Enrich", "Sink: Out");
      assertThat(texts(enrich, ".task-input"))
          .containsExactly("input 1 ◀ Source: Orders (hash)", "input 2 ◀ Source: Rates (hash)");
      assertThat(texts(tasks.get(0), ".task-input")).isEmpty();
    } finally {
      browser.quit();
      server.close();
      job.cancel();
    }
  }

  private static List<String> texts(WebElement task, String selector) {
    return task.findElements(By.cssSelector(selector)).stream().map(WebElement::getText).toList();
  }

  /** Passes both inputs on. */
  static final class PassBoth implements CoMapFunction<Long, Long, Long> {
    @Override
    public Long map1(Long order) {
      return order;
    }

    @Override
    public Long map2(Long rate) {
      return rate;
    }
  }
}
