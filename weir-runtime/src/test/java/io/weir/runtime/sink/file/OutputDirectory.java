package io.weir.runtime.sink.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What a reader of the output directory sees: visible files only, as a reader would skip. */
final class OutputDirectory {
  private final Path directory;

  OutputDirectory(Path directory) {
    this.directory = directory;
  }

  /** Names of the visible files, sorted. */
  List<String> fileNames() {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> !name.startsWith("."))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every line of every visible file, file by file in name order. */
  List<String> lines() {
    return fileNames().stream().flatMap(name -> readLines(directory.resolve(name))).toList();
  }

  /** Names of the files in a directory, hidden ones included. */
  static List<String> allFileNames(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Names of the staged files: those in the staging directory and in its attempt directories,
   * sorted; the directories themselves are not listed.
   */
  static List<String> stagedFileNames(Path staging) {
    try (Stream<Path> files = Files.walk(staging, 2)) {
      return files
          .filter(Files::isRegularFile)
          .map(file -> file.getFileName().toString())
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The staged file of that name, in whichever attempt directory it is. */
  static Path stagedFile(Path staging, String name) {
    try (Stream<Path> files = Files.walk(staging, 2)) {
      return files
          .filter(file -> file.getFileName().toString().equals(name))
          .findFirst()
          .orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stream<String> readLines(Path file) {
    try {
      return Files.readAllLines(file).stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
