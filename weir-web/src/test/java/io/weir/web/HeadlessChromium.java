package io.weir.web;

import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium driven through Debian's chromedriver. Tests fail, not skip, when either
 * is missing: {@code ./run-tests} installs them.
 */
final class HeadlessChromium {
  private static final Path[] BROWSERS = {
    Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromium-browser")
  };
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private HeadlessChromium() {}

  static ChromeDriver start(Path userDataDirectory) {
    Path browser = null;
    for (Path candidate : BROWSERS) {
      if (Files.isExecutable(candidate)) {
        browser = candidate;
      }
    }
    if (browser == null || !Files.isExecutable(DRIVER)) {
      throw new IllegalStateException(
          "Chromium and chromedriver are needed for the dashboard tests: run ./run-tests, which"
              + " installs the Debian packages chromium and chromium-driver");
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1800",
        "--user-data-dir=" + userDataDirectory);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
    return new ChromeDriver(service, options);
  }
}
