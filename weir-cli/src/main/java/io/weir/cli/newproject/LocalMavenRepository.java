package io.weir.cli.newproject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local Maven repository a job's build resolves Weir from: {@code -Dmaven.repo.local} when this
 * JVM was given it, else the {@code localRepository} of {@code ~/.m2/settings.xml}, else {@code
 * ~/.m2/repository}, as Maven itself chooses.
 */
public record LocalMavenRepository(Path root) {
  private static final Pattern LOCAL_REPOSITORY =
      Pattern.compile("<localRepository>\\s*([^<]+?)\\s*</localRepository>");

  public static LocalMavenRepository ofThisUser() {
    String given = System.getProperty("maven.repo.local");
    if (given != null) {
      return new LocalMavenRepository(Path.of(given));
    }
    Path m2 = Path.of(System.getProperty("user.home"), ".m2");
    Path settings = m2.resolve("settings.xml");
    if (Files.isRegularFile(settings)) {
      try {
        Matcher configured = LOCAL_REPOSITORY.matcher(Files.readString(settings));
        if (configured.find()) {
          return new LocalMavenRepository(
              Path.of(
                  configured.group(1).replace("${user.home}", System.getProperty("user.home"))));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + settings, e);
      }
    }
    return new LocalMavenRepository(m2.resolve("repository"));
  }

  /** Where an installed Weir artifact lives; {@code extension} is {@code jar} or {@code pom}. */
  public Path weirArtifact(String artifactId, String version, String extension) {
    return root.resolve("io")
        .resolve("weir")
        .resolve(artifactId)
        .resolve(version)
        .resolve(artifactId + "-" + version + "." + extension);
  }
}
