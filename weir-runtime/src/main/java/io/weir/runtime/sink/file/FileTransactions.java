package io.weir.runtime.sink.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Commits and aborts {@link FileTransaction}s on disk. Both are idempotent and work from the
 * transaction alone, in any process.
 */
final class FileTransactions {
  private FileTransactions() {}

  /**
   * Renames each staged part into its bucket's directory, atomically, then syncs each of those
   * directories and those between them and the output directory. A part already in its bucket and
   * no longer staged was committed by an earlier attempt and is skipped.
   */
  static void commit(FileTransaction transaction) throws IOException {
    if (transaction.partCount() == 0) {
      return;
    }
    Set<Path> bucketDirectories = transaction.bucketDirectories();
    for (Path bucket : bucketDirectories) {
      Files.createDirectories(bucket);
    }
    Path stagingDirectory = AttemptDirectories.current(transaction.stagingDirectory());
    for (int part = 0; part < transaction.partCount(); part++) {
      Path staged = transaction.stagedPartIn(stagingDirectory, part);
      Path committed = transaction.committedPart(part);
      if (Files.exists(staged)) {
        if (Files.exists(committed)) {
          throw new FileAlreadyExistsException(
              committed.toString(), null, "a committed file of another write has this name");
        }
        Files.move(staged, committed, StandardCopyOption.ATOMIC_MOVE);
      } else if (!Files.exists(committed)) {
        throw new NoSuchFileException(
            staged.toString(), null, "staged part file is missing and was never committed");
      }
    }
    syncUpToOutput(bucketDirectories, transaction.outputDirectory());
  }

  /**
   * Makes the renamed files durable, and the bucket directories the commit created: a new
   * directory's entry lives in its parent.
   */
  private static void syncUpToOutput(Set<Path> bucketDirectories, Path outputDirectory)
      throws IOException {
    Set<Path> directories = new LinkedHashSet<>();
    for (Path bucket : bucketDirectories) {
      // Stops at a directory already added: its ancestors are in too.
      for (Path directory = bucket;
          directory != null && directory.startsWith(outputDirectory) && directories.add(directory);
          directory = directory.getParent()) {}
    }
    for (Path directory : directories) {
      SinkDirectories.sync(directory);
    }
  }

  /** Deletes every staged part of the transaction, also parts it wrote after its last snapshot. */
  static void abort(FileTransaction transaction) throws IOException {
    String prefix = PartFileNames.stagedPrefix(transaction.subtaskIndex(), transaction.sequence());
    try (DirectoryStream<Path> staged =
        Files.newDirectoryStream(transaction.stagingDirectory(), prefix + "*")) {
      for (Path file : staged) {
        Files.deleteIfExists(file);
      }
    } catch (NoSuchFileException e) {
      // The staging directory is gone, and with it everything the transaction wrote.
    }
  }
}
