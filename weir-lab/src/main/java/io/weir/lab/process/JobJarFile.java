package io.weir.lab.process;

import io.weir.lab.LabUserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * A job jar named on the command line, checked before anything runs: it exists, and it holds the
 * job class (given with {@code --class}, else its manifest's {@code Main-Class}).
 *
 * @param jobClass the class whose {@code main} builds the job
 */
public record JobJarFile(Path path, String jobClass) {
  /** Whether the command line's JOB names a jar rather than a class. */
  public static boolean isJar(String job) {
    return job.endsWith(".jar");
  }

  /**
   * Checks the jar and finds its job class.
   *
   * @param givenClass the class the user named, or null for the manifest's Main-Class
   * @throws LabUserError naming the jar and what is wrong with it
   */
  public static JobJarFile open(String job, String givenClass) {
    Path path = Path.of(job);
    if (!Files.exists(path)) {
      throw new LabUserError("The job jar " + job + " does not exist");
    }
    try (JarFile jar = new JarFile(path.toFile())) {
      String jobClass = givenClass != null ? givenClass : mainClassOf(jar.getManifest());
      if (jobClass == null) {
        throw new LabUserError(
            "The jar " + job + " names no Main-Class in its manifest: give the job class with -c");
      }
      if (jar.getEntry(jobClass.replace('.', '/') + ".class") == null) {
        throw new LabUserError("The jar " + job + " has no class " + jobClass);
      }
      return new JobJarFile(path, jobClass);
    } catch (IOException e) {
      throw new LabUserError("Cannot read the job jar " + job + ": " + e.getMessage(), e);
    }
  }

  private static String mainClassOf(Manifest manifest) {
    return manifest == null ? null : manifest.getMainAttributes().getValue("Main-Class");
  }

  /** The jar's bytes, to ship to a cluster. */
  public byte[] bytes() {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new LabUserError("Cannot read the job jar " + path + ": " + e.getMessage(), e);
    }
  }
}
