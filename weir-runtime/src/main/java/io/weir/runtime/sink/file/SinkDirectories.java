package io.weir.runtime.sink.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.OptionalLong;

/** Checks, creates, lists and syncs the output and staging directories of a {@link FileSink}. */
final class SinkDirectories {
  private SinkDirectories() {}

  /** Fails with one line naming the path when something other than a directory is there. */
  static void checkNotAFile(Path directory, String role) {
    if (Files.exists(directory) && !Files.isDirectory(directory)) {
      throw new IllegalArgumentException(
          capitalized(role) + " directory " + directory + " is a file, not a directory");
    }
  }

  /** Creates the directory if needed and checks that it is a writable directory. */
  static void prepare(Path directory, String role) {
    checkNotAFile(directory, role);
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create " + role + " directory " + directory + ": " + reason(e), e);
    }
    if (!Files.isWritable(directory)) {
      throw new IllegalArgumentException(
          capitalized(role) + " directory " + directory + " is not writable");
    }
  }

  /** Commits rename staged files into the output directory, which works only on one file store. */
  static void checkSameFileStore(Path staging, Path output) {
    try {
      if (!Files.getFileStore(staging).equals(Files.getFileStore(output))) {
        throw new IllegalArgumentException(
            "Staging directory "
                + staging
                + " is not on the file system of output directory "
                + output
                + "; commits rename files, so both must be on one");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot inspect staging directory " + staging + ": " + e, e);
    }
  }

  /** The highest transaction sequence of the subtask named in the directories, or -1. */
  static long highestSequence(int subtaskIndex, List<Path> directories) {
    long highest = -1;
    for (Path directory : directories) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
        for (Path file : files) {
          OptionalLong sequence =
              PartFileNames.sequenceOf(file.getFileName().toString(), subtaskIndex);
          if (sequence.isPresent()) {
            highest = Math.max(highest, sequence.getAsLong());
          }
        }
      } catch (NoSuchFileException e) {
        // Nothing written there yet.
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot list directory " + directory + ": " + e, e);
      }
    }
    return highest;
  }

  /**
   * The highest transaction sequence of the subtask among the committed part files in the output
   * directory and in its bucket directories below it, or -1. Hidden directories (the staging
   * directory among them) are skipped: no bucket is hidden.
   */
  static long highestCommittedSequence(int subtaskIndex, Path outputDirectory) {
    long[] highest = {-1};
    try {
      Files.walkFileTree(
          outputDirectory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(
                Path directory, BasicFileAttributes attributes) {
              boolean hidden =
                  !directory.equals(outputDirectory)
                      && directory.getFileName().toString().startsWith(".");
              return hidden ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              OptionalLong sequence =
                  PartFileNames.sequenceOf(file.getFileName().toString(), subtaskIndex);
              if (sequence.isPresent()) {
                highest[0] = Math.max(highest[0], sequence.getAsLong());
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (NoSuchFileException e) {
      // Nothing written there yet.
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list directory " + outputDirectory + ": " + e, e);
    }
    return highest[0];
  }

  /** Makes the directory's entries (created, renamed files) durable. */
  static void sync(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof FileAlreadyExistsException exists) {
      return "a file is in the way at " + exists.getFile();
    }
    if (e instanceof FileSystemException failure && failure.getReason() != null) {
      return failure.getReason().toLowerCase() + " (" + failure.getFile() + ")";
    }
    return String.valueOf(e);
  }

  private static String capitalized(String role) {
    return Character.toUpperCase(role.charAt(0)) + role.substring(1);
  }
}
