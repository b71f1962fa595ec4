package io.weir.cli.newproject;

import io.weir.cli.error.UserError;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Weir's artifacts in the local Maven repository, as a job's own build resolves them: installed
 * from the checkout when one is missing or older than the checkout's build of it, so that a job
 * always compiles against the Weir that {@code weir run} runs it on.
 */
public final class WeirInstallation {
  private static final String PARENT = "weir-parent";

  private final WeirCheckout checkout;
  private final LocalMavenRepository repository;
  private final String version;

  public WeirInstallation(WeirCheckout checkout, LocalMavenRepository repository, String version) {
    this.checkout = checkout;
    this.repository = repository;
    this.version = version;
  }

  /** The artifacts that are missing from the repository or older than the checkout's build. */
  public List<String> staleArtifacts() {
    List<String> stale = new ArrayList<>();
    if (isStale(PARENT, "pom", checkout.lastBuilt(""))) {
      stale.add(PARENT);
    }
    for (String module : checkout.jobModules()) {
      String extension = checkout.buildsJar(module) ? "jar" : "pom";
      if (isStale(module, extension, checkout.lastBuilt(module))) {
        stale.add(module);
      }
    }
    return stale;
  }

  /**
   * Installs the checkout's build into the repository when {@link #staleArtifacts} names any,
   * saying so in one line on {@code progress}; blocks until Maven is done.
   *
   * @throws UserError naming the build's log when the installation fails
   */
  public void maybeInstall(PrintStream progress) throws IOException, InterruptedException {
    List<String> stale = staleArtifacts();
    if (stale.isEmpty()) {
      return;
    }
    progress.printf(
        "weir: installing Weir %s from this checkout into %s (%d of its artifacts missing or"
            + " older than the build)...%n",
        version, repository.root(), stale.size());
    Path log = checkout.root().resolve(".weir-install.log");
    Process maven;
    try {
      maven =
          new ProcessBuilder(
                  "mvn",
                  "-q",
                  "-B",
                  "-ntp",
                  "-Dmaven.repo.local=" + repository.root(),
                  "install",
                  "-DskipTests",
                  "-Dspotless.check.skip=true",
                  "-pl",
                  WeirCheckout.BENCH_ONLY.stream()
                      .map(module -> "!" + module)
                      .collect(Collectors.joining(",")))
              .directory(checkout.root().toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new UserError(
          "weir new installs Weir's artifacts with Maven, but mvn cannot be started: "
              + e.getMessage(),
          e);
    }
    if (maven.waitFor() != 0 || !staleArtifacts().isEmpty()) {
      throw new UserError("Installing Weir into the local Maven repository failed; see " + log);
    }
  }

  private boolean isStale(String artifactId, String extension, long lastBuilt) {
    Path installed = repository.weirArtifact(artifactId, version, extension);
    return !Files.isRegularFile(installed) || installed.toFile().lastModified() < lastBuilt;
  }
}
