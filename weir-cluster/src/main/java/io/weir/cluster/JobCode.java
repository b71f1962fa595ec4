package io.weir.cluster;

import io.weir.cluster.rpc.JobJar;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Where a job's classes come from on one process: the process's own class path, or the job's jar
 * through a class loader of its own. That loader's parent is the loader of Weir's classes, so the
 * API and the runtime are shared with the job while two jobs never see each other's classes. It
 * runs the job's {@code main}, and deserializes the job's functions, records and state. Closed when
 * the job (or, on a task manager, its attempt) ends on the process.
 */
public final class JobCode implements AutoCloseable {
  private final ClassLoader loader;
  private final JobJar jar;
  private final Path jarFile;

  private JobCode(ClassLoader loader, JobJar jar, Path jarFile) {
    this.loader = loader;
    this.jar = jar;
    this.jarFile = jarFile;
  }

  /** A job whose classes are on this process's class path. */
  public static JobCode classPath() {
    return new JobCode(JobCode.class.getClassLoader(), null, null);
  }

  /** A job whose classes are in the jar stored at {@code file}. */
  public static JobCode fromJar(JobJar jar, Path file) {
    try {
      URL url = file.toUri().toURL();
      return new JobCode(
          new URLClassLoader("weir job " + jar.fileName(), new URL[] {url}, parentLoader()),
          jar,
          file);
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("Cannot open the job jar " + file, e);
    }
  }

  private static ClassLoader parentLoader() {
    return JobCode.class.getClassLoader();
  }

  public ClassLoader loader() {
    return loader;
  }

  /** The stored jar, or null for a job on the class path. */
  public Path jarFile() {
    return jarFile;
  }

  /**
   * Loads the job's class (its static initializer runs with its {@code main}).
   *
   * @throws IllegalArgumentException naming the class (and the jar) when it is not there or cannot
   *     be loaded
   */
  public Class<?> loadJobClass(String className) {
    if (jar != null
        && ((URLClassLoader) loader).findResource(className.replace('.', '/') + ".class") == null) {
      throw new IllegalArgumentException(
          "The jar " + jar.fileName() + " has no class " + className);
    }
    try {
      return Class.forName(className, false, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("No job class " + className + " on the class path");
    } catch (LinkageError e) {
      throw new IllegalArgumentException("Cannot load the job class " + className + ": " + e, e);
    }
  }

  @Override
  public void close() {
    if (loader instanceof URLClassLoader own) {
      try {
        own.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot close the class loader of " + jar.fileName(), e);
      }
    }
  }
}
