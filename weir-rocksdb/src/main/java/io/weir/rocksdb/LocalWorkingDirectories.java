package io.weir.rocksdb;

import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where RocksDB backends keep their databases: {@code <root>/process-<pid>/<backend>/}. The root is
 * the system property {@code weir.rocksdb.dir}, else {@code weir-rocksdb} in the temporary
 * directory. A process killed with {@code kill -9} cannot delete its directory, so every new
 * backend first deletes the directories of processes that are no longer alive.
 */
final class LocalWorkingDirectories {
  static final String ROOT_PROPERTY = "weir.rocksdb.dir";
  private static final Pattern PROCESS_DIRECTORY = Pattern.compile("process-(\\d+)");
  private static final Pattern UNSAFE_CHARACTERS = Pattern.compile("[^A-Za-z0-9._-]+");
  private static final Logger LOG = LoggerFactory.getLogger(LocalWorkingDirectories.class);

  private LocalWorkingDirectories() {}

  static Path root() {
    String configured = System.getProperty(ROOT_PROPERTY);
    return configured != null
        ? Path.of(configured)
        : Path.of(System.getProperty("java.io.tmpdir"), "weir-rocksdb");
  }

  /** The directory of this process, below which all its RocksDB files are. */
  static Path processDirectory() {
    return root().resolve("process-" + ProcessHandle.current().pid());
  }

  /** A new, empty directory for one backend of this process. */
  static Path create(String jobName, String operatorUid, int subtaskIndex) throws IOException {
    Path root = root();
    deleteDirectoriesOfDeadProcesses(root);
    String name =
        safe(jobName) + "-" + safe(operatorUid) + "-" + subtaskIndex + "-" + UUID.randomUUID();
    Path directory = processDirectory().resolve(name);
    Files.createDirectories(directory);
    return directory;
  }

  static void deleteDirectoriesOfDeadProcesses(Path root) {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (Stream<Path> children = Files.list(root)) {
      for (Path child : children.toList()) {
        Matcher matcher = PROCESS_DIRECTORY.matcher(child.getFileName().toString());
        if (matcher.matches() && !isAlive(Long.parseLong(matcher.group(1)))) {
          LOG.info("Deleting the RocksDB directory {} of a process that ended", child);
          Directories.deleteRecursively(child);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("Could not clean up RocksDB directories in {}: {}", root, e.toString());
    }
  }

  private static boolean isAlive(long pid) {
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    return process.isPresent() && process.get().isAlive();
  }

  static String safe(String name) {
    String readable = UNSAFE_CHARACTERS.matcher(name).replaceAll("_");
    String shortened = readable.length() > 40 ? readable.substring(0, 40) : readable;
    return shortened + "-" + Integer.toHexString(name.hashCode());
  }
}
