package io.weir.cli.newproject;

import io.weir.cli.error.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir new groupId:artifactId}: a Maven project of a job of one's own, built against Weir's
 * bill of materials, with a unit test and a crash-matrix test, whose jar {@code weir run} takes.
 */
@Command(
    name = "new",
    description =
        "Create the Maven project of a new job: JSON orders from Kafka, a running total per"
            + " customer in keyed state, an exactly-once Kafka sink, and its tests. Installs Weir's"
            + " artifacts from this checkout into the local Maven repository when they are missing"
            + " or older than the build.")
public final class NewCommand implements Runnable {
  @Parameters(
      index = "0",
      paramLabel = "GROUP:ARTIFACT",
      description = "The project's Maven coordinates, e.g. com.acme:orders-job.")
  String coordinates;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Where to create the project (default: ./ARTIFACT); missing or empty.")
  Path directory;

  @Override
  public void run() {
    ProjectCoordinates project = ProjectCoordinates.parse(coordinates);
    Path target = directory != null ? directory : Path.of(project.artifactId());
    requireMissingOrEmpty(target);
    String version = weirVersion();
    WeirCheckout checkout = WeirCheckout.ofThisCommandLine();
    try {
      new WeirInstallation(checkout, LocalMavenRepository.ofThisUser(), version)
          .maybeInstall(System.err);
      new ProjectTemplate(project, version).writeTo(target);
    } catch (IOException e) {
      throw new UserError("Cannot create the project in " + target + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while installing Weir's artifacts", e);
    }
    System.out.printf(
        "created %s (package %s) in %s%nnext: cd %s && mvn verify && %s run"
            + " target/%s-0.1.0-SNAPSHOT.jar --bootstrap 127.0.0.1:9092%n",
        coordinates,
        project.javaPackage(),
        target,
        target,
        checkout.root().resolve("weir"),
        project.artifactId());
  }

  private static void requireMissingOrEmpty(Path target) {
    if (!Files.exists(target)) {
      return;
    }
    if (!Files.isDirectory(target)) {
      throw new UserError(target + " exists and is not a directory; give another with --dir");
    }
    try (Stream<Path> entries = Files.list(target)) {
      if (entries.findAny().isPresent()) {
        throw new UserError("The directory " + target + " is not empty; give another with --dir");
      }
    } catch (IOException e) {
      throw new UserError("Cannot read the directory " + target + ": " + e.getMessage(), e);
    }
  }

  /** The version this command line was built as, which its project's build imports. */
  private static String weirVersion() {
    try (InputStream in = NewCommand.class.getResourceAsStream("weir-version.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
