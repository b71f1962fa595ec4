package io.weir.runtime.sink.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a reader of a bucketed output directory sees: the lines of the visible files in each
 * directory below it, hidden files and directories skipped, as a reader would.
 */
final class BucketedOutput {
  private BucketedOutput() {}

  /** Each directory that holds visible files (relative, {@code ""} for the output) to its lines. */
  static Map<String, List<String>> linesByBucket(Path output) {
    Map<String, List<String>> lines = new TreeMap<>();
    try {
      Files.walkFileTree(
          output,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes ignored) {
              return isHidden(output, directory)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes ignored)
                throws IOException {
              if (!isHidden(output, file)) {
                String bucket = output.relativize(file.getParent()).toString();
                lines
                    .computeIfAbsent(bucket, any -> new ArrayList<>())
                    .addAll(Files.readAllLines(file));
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }

  private static boolean isHidden(Path output, Path path) {
    return !path.equals(output) && path.getFileName().toString().startsWith(".");
  }
}
