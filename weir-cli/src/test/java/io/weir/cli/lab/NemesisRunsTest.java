package io.weir.cli.lab;

import static io.weir.cli.lab.NemesisLabTest.kinds;
import static io.weir.cli.lab.NemesisLabTest.namespaces;
import static io.weir.cli.lab.NemesisLabTest.targets;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.CommandRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code weir lab --nemesis}, labs at once in network slots of their own, each a {@code weir}
 * process: the running count on three brokers under partitions, pauses, kills, isolated brokers,
 * split brokers and a full checkpoint disk; the window join under the same, and on an HA cluster
 * under zombie task managers, deposed leaders, kills and pauses of every role. The committed output
 * holds every input record exactly once (the window join: every pair of its closed windows), no
 * aborted transaction's record is ever read committed, the running count's counts match the input
 * in order, and everything a lab made is gone afterwards. The labs run beside each other to halve
 * the suite's wait; each still meets its own stall bound.
 */
class NemesisRunsTest {
  @TempDir Path directory;

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void when_nemesisHitsTheRunningCountWithEveryFaultKind_then_eachRecordAndCountIsExact()
      throws Exception {
    // given
    Path json = directory.resolve("nemesis.json");

    // when: the keyed running count, whose counts and per-key order are checked beside the ids
    CommandRun run = twoMinuteLab("lab", json, "--job", "running-count", "--nemesis-network", "2");

    // then
    JsonNode report =
        exactReport(
            run,
            json,
            "lost",
            "duplicated",
            "aborted_reads",
            "truncated_commits",
            "counts_off",
            "order_broken");
    assertThat(report.get("job").asText()).isEqualTo("running-count");
    assertThat(kinds(report)).contains("partition", "pause", "kill", "broker", "split", "disk");
    assertThat(targets(report)).anyMatch(target -> target.startsWith("job with the majority: "));
    assertThat(run.out())
        .containsPattern(
            "nemesis: faults=\\d+ kinds=6 records=\\d+ lost=0 duplicated=0 aborted-reads=0"
                + " counts-off=0 order-broken=0 max-stall=[0-9.]+ s");
    String picture = Files.readString(directory.resolve("nemesis.svg"), StandardCharsets.UTF_8);
    assertThat(picture).startsWith("<svg").contains("<polyline").contains("job -/-&gt; broker-");
    assertThat(namespaces()).noneMatch(name -> name.startsWith("weir-nemesis2-"));
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void when_nemesisHitsTheWindowJoinOnTheHaCluster_then_eachJoinedPairIsCommittedOnce()
      throws Exception {
    // given: the lab in network slot 1, beside the others
    Path json = directory.resolve("cluster-nemesis.json");

    // when: the window join on the cluster, whose every restart reads both inputs again from its
    // checkpoint on every task manager
    CommandRun run =
        twoMinuteLab(
            "cluster-lab",
            json,
            "--ha",
            "--job",
            "window-join",
            "--nemesis-network",
            "1",
            "--faults",
            "zombie,leader,kill,pause");

    // then
    JsonNode report =
        exactReport(run, json, "lost", "duplicated", "aborted_reads", "truncated_commits");
    assertThat(report.get("job").asText()).isEqualTo("window-join");
    assertThat(report.get("joined").asLong()).isGreaterThan(5_000);
    // the cluster's bound and the 20 s the feed takes to close a window at 200 records a second
    assertThat(report.get("stall_bound_s").asDouble()).isEqualTo(140.0);
    assertThat(kinds(report)).contains("zombie", "leader", "kill", "pause");
    List<String> targets = targets(report);
    for (String role : List.of("jobmanager-", "taskmanager-", "zookeeper", "broker-")) {
      for (String signal : List.of("(SIGKILL)", "(SIGSTOP)")) {
        assertThat(targets)
            .as(role + " " + signal)
            .anyMatch(target -> target.startsWith(role) && target.endsWith(signal));
      }
    }
    assertThat(targets)
        .anyMatch(target -> target.matches("taskmanager-\\d -/- job managers"))
        .anyMatch(target -> target.matches("jobmanager-\\d \\(leader\\) -/- zookeeper"));
    assertThat(namespaces()).noneMatch(name -> name.startsWith("weir-nemesis1-"));
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void when_nemesisHitsTheRunningCountIntoPostgres_then_eachRowAndCountIsExact() throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path json = directory.resolve("nemesis-postgres.json");

    // when
    CommandRun run =
        twoMinuteLab(
            "lab",
            json,
            "--job",
            "running-count",
            "--sink",
            "postgres",
            "--nemesis-network",
            "4",
            "--faults",
            "partition,pause,kill");

    // then
    JsonNode report = exactReport(run, json, "lost", "duplicated", "counts_off", "totals_off");
    assertThat(report.get("sink").asText()).isEqualTo("postgres");
    List<String> targets = new ArrayList<>();
    report.get("faults").forEach(fault -> targets.add(fault.get("target").asText()));
    assertThat(targets)
        .contains("job -/-> postgres", "postgres (SIGSTOP)", "postgres (SIGKILL)")
        .anyMatch(target -> target.startsWith("job (SIG"));
    assertThat(run.out())
        .containsPattern(
            "nemesis: faults=\\d+ kinds=3 records=\\d+ lost=0 duplicated=0 aborted-reads=0"
                + " counts-off=0 totals-off=0 max-stall=[0-9.]+ s");
    assertThat(Files.readString(directory.resolve("nemesis-postgres.svg"), StandardCharsets.UTF_8))
        .contains("job -/-&gt; postgres");
    assertThat(CommandRun.weir("lab", "--nemesis-cleanup", "--nemesis-network", "4").out())
        .contains("nemesis: nothing to remove");
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void when_nemesisHitsTheWindowJoinWithEveryFaultKind_then_eachJoinedPairIsCommittedOnce()
      throws Exception {
    // given: the lab in network slot 5, beside the others
    Path json = directory.resolve("nemesis-join.json");

    // when: two inputs joined per word in event-time windows, checked against a plain loop
    CommandRun run =
        twoMinuteLab("join-lab", json, "--job", "window-join", "--nemesis-network", "5");

    // then: lost and duplicated count joined pairs missing and rows extra
    JsonNode report =
        exactReport(run, json, "lost", "duplicated", "aborted_reads", "truncated_commits");
    assertThat(report.get("job").asText()).isEqualTo("window-join");
    assertThat(report.get("joined").asLong()).isGreaterThan(5_000);
    // the local job's bound and the 20 s the feed takes to close a window at 200 records a second
    assertThat(report.get("stall_bound_s").asDouble()).isEqualTo(80.0);
    assertThat(kinds(report)).contains("partition", "pause", "kill", "broker", "split", "disk");
    assertThat(run.out())
        .containsPattern(
            "nemesis: faults=\\d+ kinds=6 records=\\d+ joined=\\d+ lost=0 duplicated=0"
                + " aborted-reads=0 max-stall=[0-9.]+ s");
    assertThat(namespaces()).noneMatch(name -> name.startsWith("weir-nemesis5-"));
  }

  /**
   * The lab's JSON report, once the lab exited 0 with each of {@code zeroCounts} at zero, more than
   * 5,000 records and no stall over its bound.
   */
  private static JsonNode exactReport(CommandRun run, Path json, String... zeroCounts)
      throws IOException {
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    for (String count : zeroCounts) {
      assertThat(report.get(count).asLong()).as(count + " in " + report).isZero();
    }
    assertThat(report.get("records").asLong()).isGreaterThan(5_000);
    assertThat(report.get("max_stall_s").asDouble())
        .isLessThanOrEqualTo(report.get("stall_bound_s").asDouble());
    return report;
  }

  /**
   * Runs {@code weir lab --nemesis} with {@code options} for two minutes of faults at 200 records a
   * second, seeded, in a JVM of its own, its lab in {@code labDirectory} and its report in {@code
   * json}.
   */
  private CommandRun twoMinuteLab(String labDirectory, Path json, String... options)
      throws IOException, InterruptedException {
    List<String> arguments = new ArrayList<>(List.of("lab", "--nemesis"));
    arguments.addAll(List.of(options));
    arguments.addAll(
        List.of(
            "--minutes",
            "2",
            "--rate",
            "200",
            "--random-seed",
            "49",
            "--timeout",
            "180",
            "--dir",
            directory.resolve(labDirectory).toString(),
            "--json",
            json.toString()));
    return CommandRun.weirInChildJvm(directory.resolve("run"), arguments.toArray(String[]::new));
  }
}
