package io.weir.lab.process;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutor;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.lab.LabUserError;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.Consumer;

/**
 * Runs a job's {@code main} with a launcher context installed: the job's code builds the same graph
 * as always, and the context decides what {@code execute} does and which settings the command line
 * overrides. A job class is found on the class path, or in a jar given as the job (its Main-Class,
 * or the class given with {@code -c}).
 */
public final class JobLauncher {
  private JobLauncher() {}

  public static void launch(
      String job, String[] args, JobExecutor executor, Consumer<JobConfig> overrides)
      throws Exception {
    launch(job, null, args, executor, overrides);
  }

  /**
   * @param givenClass with a jar: the job class to run, or null for the jar's Main-Class
   */
  public static void launch(
      String job,
      String givenClass,
      String[] args,
      JobExecutor executor,
      Consumer<JobConfig> overrides)
      throws Exception {
    JobJarFile jar = JobJarFile.isJar(job) ? JobJarFile.open(job, givenClass) : null;
    ClassLoader loader = loaderFor(jar);
    Class<?> jobClass = loadJobClass(jar == null ? job : jar.jobClass(), loader);
    Method main;
    try {
      main = jobClass.getMethod("main", String[].class);
    } catch (NoSuchMethodException e) {
      throw new LabUserError(
          "The job class " + jobClass.getName() + " has no main(String[]) method");
    }
    if (!Modifier.isStatic(main.getModifiers())) {
      throw new LabUserError("The main method of " + jobClass.getName() + " is not static");
    }
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    Thread.currentThread().setContextClassLoader(loader);
    StreamEnvironment.setContext(new StreamEnvironment.Context(executor, overrides));
    try {
      main.invoke(null, (Object) args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException) {
        throw new LabUserError(cause.getMessage(), cause);
      }
      throw cause instanceof Exception exception ? exception : new RuntimeException(cause);
    } finally {
      StreamEnvironment.clearContext();
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  private static ClassLoader loaderFor(JobJarFile jar) throws MalformedURLException {
    if (jar == null) {
      return JobLauncher.class.getClassLoader();
    }
    URL url = jar.path().toUri().toURL();
    return new URLClassLoader(new URL[] {url}, JobLauncher.class.getClassLoader());
  }

  private static Class<?> loadJobClass(String className, ClassLoader loader) {
    try {
      return Class.forName(className, true, loader);
    } catch (ClassNotFoundException e) {
      throw new LabUserError("No job class " + className + " on the class path or in the jar");
    }
  }
}
