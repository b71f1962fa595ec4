package io.weir.cli.newproject;

import io.weir.cli.error.UserError;
import java.util.regex.Pattern;

/**
 * The Maven coordinates of a new job's project, {@code groupId:artifactId}, and the Java package
 * its classes go in: the group id followed by the artifact id without its dashes ({@code
 * com.acme:orders-job} gives {@code com.acme.ordersjob}).
 */
public record ProjectCoordinates(String groupId, String artifactId) {
  // Each part of the group id must be a Java package name, since the package is made of them.
  private static final Pattern GROUP_ID = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");
  private static final Pattern ARTIFACT_ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

  /**
   * @throws UserError in one line when {@code coordinates} is not {@code groupId:artifactId} with
   *     lower-case parts
   */
  public static ProjectCoordinates parse(String coordinates) {
    String[] parts = coordinates.split(":", -1);
    if (parts.length != 2
        || !GROUP_ID.matcher(parts[0]).matches()
        || !ARTIFACT_ID.matcher(parts[1]).matches()) {
      throw new UserError(
          "'"
              + coordinates
              + "' is not a project's groupId:artifactId in lower case, such as com.acme:orders-job");
    }
    return new ProjectCoordinates(parts[0], parts[1]);
  }

  /** The Java package of the project's classes. */
  public String javaPackage() {
    return groupId + "." + artifactId.replace("-", "");
  }
}
