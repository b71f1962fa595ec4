package io.weir.lab.process;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a JVM that Weir starts (a job process of the lab or the bench, a cluster's job manager or
 * task manager) takes over from the JVM that starts it, which the {@code weir} launcher started:
 * the {@code java} command and class path, the class-data sharing archive, and the just-in-time
 * compilers' settings.
 */
public final class ChildJvmOptions {
  /** The system property naming the launcher's class-data sharing archive. */
  public static final String CDS_ARCHIVE_PROPERTY = "weir.cds.archive";

  private static final String START_RECORDING = "-XX:StartFlightRecording";
  // The compilers' mode, their thresholds and their threads' priority, which the launcher raises
  // for commands that run jobs.
  private static final List<String> COMPILER_SETTINGS =
      List.of(
          "-XX:TieredStopAtLevel=", "-XX:CompileThresholdScaling=", "-XX:ThreadPriorityPolicy=");

  private ChildJvmOptions() {}

  /**
   * The options of a Weir JVM started with {@code jvmOptions}: this JVM's compiler settings, then
   * its class-data sharing archive. Put {@code jvmOptions} after them, so that they override.
   */
  public static List<String> of(List<String> jvmOptions) {
    List<String> options = new ArrayList<>(compilerSettings(inputArguments()));
    options.addAll(classDataSharing(jvmOptions));
    return options;
  }

  /**
   * The options that let a JVM started with {@code jvmOptions} map the class-data sharing archive
   * the {@code weir} launcher built (named by the system property {@value #CDS_ARCHIVE_PROPERTY}),
   * so that it starts as fast as {@code weir run}; none when there is no archive. A stale or
   * mismatched archive is ignored by the JVM ({@code -Xshare:auto}), it never fails the start. None
   * either when {@code jvmOptions} start a Flight Recorder recording: with the recorder's
   * class-file hook on, the JVM (17.0.15) crashes loading a method-handle class that the archive
   * holds as generated at dump time, without its class file.
   */
  public static List<String> classDataSharing(List<String> jvmOptions) {
    String archive = System.getProperty(CDS_ARCHIVE_PROPERTY);
    if (archive == null
        || !Files.isRegularFile(Path.of(archive))
        || jvmOptions.stream().anyMatch(option -> option.startsWith(START_RECORDING))) {
      return List.of();
    }
    return List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off");
  }

  /**
   * The compiler settings among a JVM's {@code inputArguments} (the mode, as {@code WEIR_JAVA_OPTS}
   * gave it to a command, and the thresholds and the priority policy, as the launcher or the user
   * gave them; the last of each counts), for a child to run as its parent does: a job's own JVM
   * compiles as {@code weir run} would, and a user who chose the first tier alone for a short job
   * gets it there too. None when the JVM runs with the default compilers.
   */
  static List<String> compilerSettings(List<String> inputArguments) {
    List<String> settings = new ArrayList<>();
    for (String setting : COMPILER_SETTINGS) {
      String last = null;
      for (String argument : inputArguments) {
        if (argument.startsWith(setting)) {
          last = argument;
        }
      }
      if (last != null) {
        settings.add(last);
      }
    }
    return settings;
  }

  /**
   * {@code java <jvmOptions> -cp <this JVM's class path> <mainAndArguments>} with this JVM's own
   * {@code java}, its output and errors appended to {@code log}; not started yet.
   */
  public static ProcessBuilder processBuilder(
      List<String> jvmOptions, List<String> mainAndArguments, Path log) {
    return processBuilder(System.getProperty("java.class.path"), jvmOptions, mainAndArguments, log);
  }

  /** As {@link #processBuilder(List, List, Path)}, on another class path than this JVM's. */
  public static ProcessBuilder processBuilder(
      String classPath, List<String> jvmOptions, List<String> mainAndArguments, Path log) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.addAll(mainAndArguments);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
  }

  private static List<String> inputArguments() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments();
  }
}
