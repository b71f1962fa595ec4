package io.weir.cli.newproject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The files of a new job's project, kept as resources beside this class: {@code files.txt} lists
 * each template and its path in the project; {@code {{groupId}}}, {@code {{artifactId}}}, {@code
 * {{package}}} and {@code {{weirVersion}}} in a template are replaced by the project's values.
 */
public final class ProjectTemplate {
  private static final String INDEX = "files.txt";

  private final ProjectCoordinates coordinates;
  private final String weirVersion;

  public ProjectTemplate(ProjectCoordinates coordinates, String weirVersion) {
    this.coordinates = coordinates;
    this.weirVersion = weirVersion;
  }

  /**
   * Writes the project's files under {@code directory}, which must be empty or missing.
   *
   * @return the files written, relative to {@code directory}
   */
  public List<Path> writeTo(Path directory) throws IOException {
    Map<String, String> values =
        Map.of(
            "{{groupId}}", coordinates.groupId(),
            "{{artifactId}}", coordinates.artifactId(),
            "{{package}}", coordinates.javaPackage(),
            "{{weirVersion}}", weirVersion);
    List<Path> written = new ArrayList<>();
    for (String line : resource(INDEX).lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] templateAndPath = line.trim().split("\\s+");
      Path target =
          directory.resolve(
              templateAndPath[1].replace("{package}", coordinates.javaPackage().replace('.', '/')));
      String text = resource(templateAndPath[0]);
      for (Map.Entry<String, String> value : values.entrySet()) {
        text = text.replace(value.getKey(), value.getValue());
      }
      Files.createDirectories(target.getParent());
      Files.writeString(target, text);
      written.add(directory.relativize(target));
    }
    return written;
  }

  private static String resource(String name) {
    try (InputStream in = ProjectTemplate.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The project template lacks " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
