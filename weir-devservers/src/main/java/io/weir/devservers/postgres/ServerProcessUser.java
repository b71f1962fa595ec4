package io.weir.devservers.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Who the server processes run as. PostgreSQL refuses to run as root, so when this JVM is root the
 * server runs as {@code nobody} (through {@code setpriv}, which replaces itself by the server, so
 * the started process is the server) and owns its data directory; otherwise it runs as this user.
 */
final class ServerProcessUser {
  private static final String UNPRIVILEGED = "nobody";

  private final boolean dropPrivileges;

  private ServerProcessUser(boolean dropPrivileges) {
    this.dropPrivileges = dropPrivileges;
  }

  static ServerProcessUser forThisProcess() {
    return new ServerProcessUser("root".equals(System.getProperty("user.name")));
  }

  /** {@code command} as it must be started: prefixed by the privilege drop when needed. */
  List<String> command(List<String> command) {
    if (!dropPrivileges) {
      return command;
    }
    List<String> wrapped = new ArrayList<>();
    wrapped.add("setpriv");
    wrapped.add("--reuid=" + UNPRIVILEGED);
    wrapped.add("--regid=" + unprivilegedGroup().getName());
    wrapped.add("--clear-groups");
    wrapped.addAll(command);
    return wrapped;
  }

  /**
   * Hands the data directory (created if needed, mode 700 as the server demands) to the server's
   * user, and checks that the user can reach it through its parents.
   */
  void prepareDataDirectory(Path dataDirectory) {
    try {
      Files.createDirectories(dataDirectory);
      Files.setPosixFilePermissions(
          dataDirectory,
          Set.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));
      if (!dropPrivileges) {
        return;
      }
      checkReachable(dataDirectory.getParent());
      UserPrincipalLookupService lookup =
          dataDirectory.getFileSystem().getUserPrincipalLookupService();
      UserPrincipal user = lookup.lookupPrincipalByName(UNPRIVILEGED);
      GroupPrincipal group = unprivilegedGroup();
      try (Stream<Path> paths = Files.walk(dataDirectory)) {
        for (Path path : paths.toList()) {
          PosixFileAttributeView view =
              Files.getFileAttributeView(path, PosixFileAttributeView.class);
          view.setOwner(user);
          view.setGroup(group);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the data directory " + dataDirectory, e);
    }
  }

  private static void checkReachable(Path directory) throws IOException {
    for (Path path = directory; path != null; path = path.getParent()) {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
      if (!permissions.contains(PosixFilePermission.OTHERS_EXECUTE)) {
        throw new PostgresServerException(
            "the server runs as user '"
                + UNPRIVILEGED
                + "' (PostgreSQL refuses root), which cannot enter "
                + path
                + "; choose a server directory outside it (--dir)");
      }
    }
  }

  private static GroupPrincipal unprivilegedGroup() {
    UserPrincipalLookupService lookup =
        Path.of("/").getFileSystem().getUserPrincipalLookupService();
    // Debian names the group nogroup, Red Hat nobody.
    for (String name : List.of("nogroup", UNPRIVILEGED)) {
      try {
        return lookup.lookupPrincipalByGroupName(name);
      } catch (UserPrincipalNotFoundException e) {
        // try the next name
      } catch (IOException e) {
        throw new UncheckedIOException("cannot look up group " + name, e);
      }
    }
    throw new PostgresServerException("no group 'nogroup' or 'nobody' to run the server as");
  }
}
