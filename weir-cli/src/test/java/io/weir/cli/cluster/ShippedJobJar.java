package io.weir.cli.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.ToolProvider;

/**
 * Compiles a job (resource {@code shipped/CountJob.java.txt}) at test time into a jar, so its
 * classes exist only there: no process's class path has them.
 */
final class ShippedJobJar {
  static final String JOB_CLASS = "shipped.CountJob";

  private ShippedJobJar() {}

  /** Writes the jar with the given Main-Class (or none when null) and returns it. */
  static Path build(Path directory, String name, String mainClass) throws IOException {
    Path classes = compile(directory.resolve(name + "-classes"));
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    if (mainClass != null) {
      manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
    }
    Path jar = directory.resolve(name + ".jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        Stream<Path> files = Files.walk(classes)) {
      for (Path classFile : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(classFile).toString().replace('\\', '/')));
        Files.copy(classFile, out);
        out.closeEntry();
      }
    }
    return jar;
  }

  private static Path compile(Path classes) throws IOException {
    Path source = classes.resolveSibling(classes.getFileName() + "-src/shipped/CountJob.java");
    Files.createDirectories(source.getParent());
    Files.createDirectories(classes);
    try (InputStream in = ShippedJobJar.class.getResourceAsStream("/shipped/CountJob.java.txt")) {
      Files.writeString(source, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    List<String> arguments =
        List.of(
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            classes.toString(),
            source.toString());
    int exitCode =
        ToolProvider.getSystemJavaCompiler()
            .run(null, null, null, arguments.toArray(String[]::new));
    if (exitCode != 0) {
      throw new IllegalStateException("Cannot compile " + source);
    }
    return classes;
  }
}
