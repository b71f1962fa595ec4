package io.weir.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.monitor.KafkaMonitor;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A dashboard with a token, opened in a real browser: it asks for the token in a form, keeps it out
 * of the address bar, refuses a wrong one and shows the jobs with the right one.
 */
class DashboardSignInTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Test
  void when_dashboardNeedsAToken_then_theBrowserSignsInByFormAndTheUrlNeverHoldsIt()
      throws Exception {
    try (WebServer server =
        WebServer.start(
            new WebServerOptions("127.0.0.1", 0, "t0ken-of-the-dashboard"),
            new LocalJobs(),
            KafkaMonitor.NONE,
            null)) {
      ChromeDriver browser = HeadlessChromium.start(Files.createTempDirectory("weir-chromium-"));
      try {
        WebDriverWait wait = new WebDriverWait(browser, PATIENCE);
        // given: a first visit
        browser.get("http://127.0.0.1:" + server.port() + "/");

        // then: the page asks for the token
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in")));
        assertThat(browser.findElement(By.id("access")).getText())
            .contains("weir cluster dashboard-token");

        // when: a wrong token
        signIn(browser, "guess");
        // then: refused, and asked again
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("access"), "refused"));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sign-in")));

        // when: the right one
        signIn(browser, "t0ken-of-the-dashboard");
        // then: the job list, and the token nowhere in the address
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("jobs")));
        wait.until(
            ExpectedConditions.textToBePresentInElementLocated(By.id("status-line"), "0 job(s)"));
        assertThat(browser.getCurrentUrl()).doesNotContain("t0ken");
        assertThat(browser.findElement(By.id("access")).isDisplayed()).isFalse();
      } finally {
        browser.quit();
      }
    }
  }

  private static void signIn(ChromeDriver browser, String token) {
    var input = browser.findElement(By.id("token"));
    input.clear();
    input.sendKeys(token);
    browser.findElement(By.cssSelector("#sign-in button")).click();
  }
}
