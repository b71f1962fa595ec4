package io.weir.cli.newproject;

import io.weir.cli.error.UserError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The source checkout this command line was built from: its modules, and when each was last built.
 * The command line runs from {@code weir-cli/target/} of the checkout (its jar, or its classes in a
 * test), so the checkout is found from the command line's own code.
 */
public record WeirCheckout(Path root) {
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
  // Bench-only modules are no dependency of any job, and are not installed.
  static final List<String> BENCH_ONLY = List.of("weir-benchmarks", "weir-nexmark-flink");

  /**
   * @throws UserError when the command line does not run from a checkout's {@code weir-cli/target}
   */
  public static WeirCheckout ofThisCommandLine() {
    Path code;
    try {
      code =
          Path.of(WeirCheckout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Cannot locate the command line's code", e);
    }
    // .../weir-cli/target/weir-cli.jar or .../weir-cli/target/classes
    Path root = code.getParent() == null ? null : code.getParent().getParent();
    root = root == null ? null : root.getParent();
    if (root == null || !Files.isRegularFile(root.resolve("weir-bom").resolve("pom.xml"))) {
      throw new UserError(
          "weir new installs Weir from the checkout it runs from, but "
              + code
              + " is not in a Weir checkout's weir-cli/target");
    }
    return new WeirCheckout(root);
  }

  /** The modules a job may depend on, directly or through another: all but the benchmarks. */
  public List<String> jobModules() {
    Matcher modules = MODULE.matcher(read(root.resolve("pom.xml")));
    List<String> names = new ArrayList<>();
    while (modules.find()) {
      if (!BENCH_ONLY.contains(modules.group(1))) {
        names.add(modules.group(1));
      }
    }
    return names;
  }

  /**
   * When {@code module} was last built, in milliseconds of the epoch: the newest of its pom and of
   * its compiled classes ({@link Long#MAX_VALUE} when it has none yet), or the parent pom's time
   * for the root ({@code ""}).
   */
  public long lastBuilt(String module) {
    Path directory = module.isEmpty() ? root : root.resolve(module);
    long newest = directory.resolve("pom.xml").toFile().lastModified();
    if (module.isEmpty() || !buildsJar(module)) {
      return newest;
    }
    Path classes = directory.resolve("target").resolve("classes");
    if (!Files.isDirectory(classes)) {
      return Long.MAX_VALUE;
    }
    try (Stream<Path> files = Files.walk(classes)) {
      return Math.max(
          newest,
          files
              .filter(Files::isRegularFile)
              .mapToLong(f -> f.toFile().lastModified())
              .max()
              .orElse(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether {@code module} builds a jar; otherwise it is a pom of its own (a bill of materials).
   */
  public boolean buildsJar(String module) {
    return !read(root.resolve(module).resolve("pom.xml")).contains("<packaging>pom</packaging>");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
  }
}
