package io.weir.cli.lab;

import io.weir.cli.error.UserError;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.nemesis.FaultKind;
import io.weir.lab.nemesis.NemesisDeployment;
import io.weir.lab.nemesis.NemesisJob;
import io.weir.lab.nemesis.NemesisLab;
import io.weir.lab.nemesis.NemesisReport;
import io.weir.lab.nemesis.NemesisSink;
import io.weir.lab.nemesis.NetworkSlot;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options of {@code weir lab --nemesis} and {@code --nemesis-cleanup}, and what they run. */
final class NemesisOptions {
  @Option(
      names = "--nemesis",
      description =
          "Run the seed job on a three-broker cluster, each process on a network namespace of its"
              + " own, and inject faults for --minutes; then check the committed output.")
  boolean nemesis;

  @Option(
      names = "--faults",
      split = ",",
      paramLabel = "KIND",
      description =
          "With --nemesis: the fault kinds to inject, of partition, pause, kill, broker, split, disk"
              + " and, with --ha, zombie, leader (default: all that apply).")
  List<String> faults = new ArrayList<>();

  @Option(
      names = "--nemesis-cleanup",
      description = "Remove the network namespaces, links and processes a nemesis lab left behind.")
  boolean cleanup;

  @Option(
      names = "--nemesis-network",
      paramLabel = "SLOT",
      description =
          "With --nemesis or --nemesis-cleanup: the lab network to use, 0 to 9 (bridge weirnemN,"
              + " addresses 10.77.N.0/24), so labs in different slots run side by side (default:"
              + " ${DEFAULT-VALUE}).")
  int nemesisNetwork = 0;

  /** Whether --faults was given without --nemesis. */
  boolean strayOption() {
    return !nemesis && !faults.isEmpty();
  }

  /** Removes what a lab in the chosen network slot left behind, and prints what it removed. */
  int cleanUp() throws IOException {
    List<String> removed = NemesisLab.removeLeftovers(networkSlot());
    System.out.println(
        removed.isEmpty()
            ? "nemesis: nothing to remove"
            : "nemesis: removed " + String.join(", ", removed));
    return 0;
  }

  /**
   * Runs the nemesis lab with the job and sink of {@code lab}, on {@code deployment}, and prints
   * its report; returns the exit code (1 on any anomaly). Every option that does not fit is a user
   * error before anything starts.
   */
  int run(LabOptions lab, LabSettings settings, NemesisDeployment deployment) throws Exception {
    NemesisJob job = lab.jobClass == null ? NemesisJob.SEED : NemesisJob.parse(lab.jobClass);
    NemesisSink sink = lab.sink == LabSink.POSTGRES ? NemesisSink.POSTGRES : NemesisSink.KAFKA;
    sink.checkRuns(job, deployment);
    List<FaultKind> kinds = faults.isEmpty() ? deployment.faultKinds() : FaultKind.parse(faults);
    for (FaultKind kind : kinds) {
      if (!deployment.applies(kind)) {
        throw new UserError("--faults: " + kind.key() + " needs the HA cluster: add --ha");
      }
    }
    lab.recreateDirectory();
    long seed = lab.seed();
    LabProgress progress = new LabProgress(System.out, "nemesis");
    progress.line("random seed " + seed + " (--random-seed to repeat); lab in " + lab.directory);
    NemesisReport report =
        new NemesisLab(
                networkSlot(),
                job,
                sink,
                deployment,
                settings.ratePerSecond(),
                settings.timeout(),
                kinds,
                seed,
                progress,
                Clock.systemUTC())
            .run(lab.directory.toAbsolutePath(), lab.topics(), lab.duration());
    report.table().forEach(System.out::println);
    report.anomalies().forEach(anomaly -> System.out.println("anomaly: " + anomaly));
    if (lab.json != null) {
      progress.line("timeline picture " + report.write(lab.json));
    }
    System.out.println(report.line());
    return report.anomalies().isEmpty() ? 0 : 1;
  }

  private NetworkSlot networkSlot() {
    if (nemesisNetwork < 0 || nemesisNetwork >= NetworkSlot.COUNT) {
      throw new UserError(
          "--nemesis-network is 0 to " + (NetworkSlot.COUNT - 1) + ", not " + nemesisNetwork);
    }
    return new NetworkSlot(nemesisNetwork);
  }
}
