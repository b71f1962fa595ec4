package io.weir.devservers.kafka;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The broker's classpath. The build resolves Kafka's server jars from Maven Central and lists them
 * in resource files beside this class; they are kept off the classpath of jobs so the broker's
 * logging and Scala libraries cannot clash with a user's.
 */
final class BrokerClasspath {
  private static final String[] LISTS = {"broker-classpath.txt", "client-runtime-classpath.txt"};

  private BrokerClasspath() {}

  static String get() {
    Set<String> entries = new LinkedHashSet<>();
    for (String list : LISTS) {
      for (String entry : read(list).split(File.pathSeparator)) {
        if (!entry.isBlank()) {
          entries.add(entry.trim());
        }
      }
    }
    for (String entry : entries) {
      if (!Files.exists(Path.of(entry))) {
        throw new KafkaBrokerException(
            "Kafka broker jar " + entry + " is missing; rebuild Weir so Maven downloads it");
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static String read(String list) {
    try (InputStream in = BrokerClasspath.class.getResourceAsStream(list)) {
      if (in == null) {
        throw new KafkaBrokerException(
            "the Kafka broker classpath (" + list + ") is not in the weir-kafka jar; rebuild Weir");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KafkaBrokerException("cannot read the Kafka broker classpath " + list, "", e);
    }
  }
}
