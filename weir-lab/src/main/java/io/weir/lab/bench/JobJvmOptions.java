package io.weir.lab.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options a benchmark adds to each process it measures: options given by the user, and a
 * JDK Flight Recorder recording per run when a profile directory is given, so that a profile of the
 * exact run that was timed can be read afterwards ({@code jfr summary}, {@code jfr print}).
 *
 * @param options added as given to every measured process
 * @param profileDirectory where each run writes {@code <run>.jfr}, or null for no recording
 */
public record JobJvmOptions(List<String> options, Path profileDirectory) {
  public static final JobJvmOptions NONE = new JobJvmOptions(List.of(), null);

  public JobJvmOptions {
    options = List.copyOf(options);
  }

  /** The options of the run named {@code runName} (unique within one benchmark). */
  List<String> forRun(String runName) {
    List<String> forRun = new ArrayList<>(options);
    if (profileDirectory != null) {
      Path recording = profileDirectory.toAbsolutePath().resolve(runName + ".jfr");
      // The "profile" settings sample execution every 10 ms and allocation, as the issue asks.
      forRun.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + recording);
    }
    return forRun;
  }
}
