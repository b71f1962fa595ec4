package io.weir.cluster;

import io.weir.cluster.rpc.JobJar;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Job jars in one directory, each file named by the SHA-256 of its bytes: a jar submitted or
 * shipped twice is stored once, and bytes that do not match their name are never stored. The job
 * manager keeps the submitted jars; each task manager caches the jars shipped to it.
 */
public final class JarStore {
  private final String temporaryPrefix;
  private volatile Path directory;

  public JarStore(Path directory) {
    this(directory, null);
  }

  private JarStore(Path directory, String temporaryPrefix) {
    this.directory = directory;
    this.temporaryPrefix = temporaryPrefix;
  }

  /**
   * A store in a temporary directory, for a process that keeps its jars only while it runs. The
   * directory is created with the first jar, and deleted by {@link #deleteAll} or when the process
   * exits; what a killed process left behind is deleted when the next one creates its directory.
   */
  public static JarStore temporary(String prefix) {
    return new JarStore(null, prefix);
  }

  private synchronized Path directory() throws IOException {
    if (directory == null) {
      Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
      deleteLeftoversOfDeadProcesses(temporary);
      long pid = ProcessHandle.current().pid();
      directory = Files.createTempDirectory(temporary, temporaryPrefix + "-" + pid + "-");
      Runtime.getRuntime().addShutdownHook(new Thread(this::deleteAllQuietly, "weir jar cleanup"));
    }
    return directory;
  }

  /** A process killed with SIGKILL cannot clean up: its directory is named by its pid. */
  private void deleteLeftoversOfDeadProcesses(Path temporary) throws IOException {
    Pattern name = Pattern.compile(Pattern.quote(temporaryPrefix) + "-(\\d+)-.*");
    try (Stream<Path> candidates = Files.list(temporary)) {
      for (Path candidate : candidates.toList()) {
        Matcher matcher = name.matcher(candidate.getFileName().toString());
        if (matcher.matches()
            && ProcessHandle.of(Long.parseLong(matcher.group(1))).isEmpty()
            && Files.isDirectory(candidate)) {
          new JarStore(candidate).deleteAllQuietly();
        }
      }
    }
  }

  /**
   * Stores the jar's bytes unless they are already there.
   *
   * @return the stored file
   * @throws IllegalArgumentException when the bytes are not those of the jar
   */
  public Path store(JobJar jar, byte[] bytes) throws IOException {
    if (!JobJar.sha256Of(bytes).equals(jar.sha256())) {
      throw new IllegalArgumentException(
          "The jar " + jar.fileName() + " arrived damaged (its SHA-256 does not match)");
    }
    Path file = directory().resolve(fileNameOf(jar));
    if (Files.exists(file)) {
      return file;
    }
    Files.createDirectories(file.getParent());
    Path partial = Files.createTempFile(file.getParent(), ".upload-", ".jar");
    try {
      Files.write(partial, bytes);
      // Atomic, so a concurrent reader never sees half a jar under the final name.
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
    return file;
  }

  /** The stored file of the jar, if it is here. */
  public Optional<Path> find(JobJar jar) {
    Path root = directory;
    Path file = root == null ? null : root.resolve(fileNameOf(jar));
    return file != null && Files.exists(file) ? Optional.of(file) : Optional.empty();
  }

  /** Deletes the directory and every jar in it. */
  public void deleteAll() {
    Path root = directory;
    if (root == null || !Files.isDirectory(root)) {
      return;
    }
    try {
      Directories.deleteRecursively(root);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the job jars in " + root, e);
    }
  }

  private void deleteAllQuietly() {
    try {
      deleteAll();
    } catch (UncheckedIOException e) {
      // The process is exiting: nothing is left to tell.
    }
  }

  private static String fileNameOf(JobJar jar) {
    if (!jar.sha256().matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("Not a SHA-256: " + jar.sha256());
    }
    return jar.sha256() + ".jar";
  }
}
