package io.weir.devservers.process;

import io.weir.files.DurableFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The file a started server leaves in its directory (its process id and ports) so that another
 * process, a {@code weir ... stop} command or a lab, can find and stop it. Written to a temporary
 * name, forced to disk and renamed into place, so a reader never sees half of it, even after a
 * crash.
 */
public final class ServerStateFile {
  private ServerStateFile() {}

  /**
   * Writes {@code values} to {@code file}, replacing what was there: whole or not at all, even when
   * the machine stops halfway ({@link DurableFiles#writeAtomically}).
   */
  public static void write(Path file, String comment, Map<String, String> values) {
    Properties properties = new Properties();
    properties.putAll(values);
    StringWriter text = new StringWriter();
    try {
      properties.store(text, comment);
      DurableFiles.writeAtomically(file, text.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** What {@code file} holds, or empty when there is no such file. */
  public static Optional<Properties> read(Path file) throws IOException {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
      return Optional.of(properties);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  public static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file, e);
    }
  }
}
