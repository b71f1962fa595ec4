package io.weir.cli.lab;

import java.io.IOException;
import java.io.OutputStream;
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
 * A job jar whose main class exists only in the jar (compiled at test time): it runs the seed job,
 * so the lab's contract holds, but no process finds the class unless it loads the jar.
 */
final class SeedJobJar {
  static final String JOB_CLASS = "shipped.LabSeedJob";

  private static final String SOURCE =
      "package shipped;\n"
          + "public final class LabSeedJob {\n"
          + "  public static void main(String[] args) throws Exception {\n"
          + "    io.weir.examples.SeedJob.main(args);\n"
          + "  }\n"
          + "}\n";

  private SeedJobJar() {}

  /** Writes {@code name}.jar under {@code directory}, its manifest naming the job class. */
  static Path build(Path directory, String name) throws IOException {
    Path source = directory.resolve(name + "-src/shipped/LabSeedJob.java");
    Path classes = directory.resolve(name + "-classes");
    Files.createDirectories(source.getParent());
    Files.createDirectories(classes);
    Files.writeString(source, SOURCE);
    List<String> arguments =
        List.of(
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            classes.toString(),
            source.toString());
    if (ToolProvider.getSystemJavaCompiler().run(null, null, null, arguments.toArray(String[]::new))
        != 0) {
      throw new IllegalStateException("Cannot compile " + source);
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, JOB_CLASS);
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
}
