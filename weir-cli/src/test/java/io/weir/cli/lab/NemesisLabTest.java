package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.CommandRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --nemesis}: three brokers and the seed job (or the running count), each in a
 * network namespace of its own, under partitions, pauses, kills, isolated brokers, split brokers
 * and a full checkpoint disk; the committed output holds every input record exactly once, no
 * aborted transaction's record is ever read committed, the running count's counts match the input
 * in order, and everything the lab made is gone afterwards. Runs as root, as the build's machines
 * do.
 */
class NemesisLabTest {
  private static final String NAMESPACE_PREFIX = "weir-nemesis-";

  @TempDir Path directory;

  @Test
  void when_nemesisHitsTheRunningCountWithEveryFaultKind_then_eachRecordAndCountIsExact()
      throws Exception {
    // given
    Path json = directory.resolve("nemesis.json");

    // when: the keyed running count, whose counts and per-key order are checked beside the ids
    CommandRun run =
        CommandRun.weir(
            "lab",
            "--nemesis",
            "--job",
            "running-count",
            "--minutes",
            "2",
            "--rate",
            "200",
            "--random-seed",
            "49",
            "--timeout",
            "180",
            "--dir",
            directory.resolve("lab").toString(),
            "--json",
            json.toString());

    // then
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.get("lost").asLong()).as(report.toString()).isZero();
    assertThat(report.get("duplicated").asLong()).as(report.toString()).isZero();
    assertThat(report.get("aborted_reads").asLong()).as(report.toString()).isZero();
    assertThat(report.get("truncated_commits").asLong()).as(report.toString()).isZero();
    assertThat(report.get("job").asText()).isEqualTo("running-count");
    assertThat(report.get("counts_off").asLong()).as(report.toString()).isZero();
    assertThat(report.get("order_broken").asLong()).as(report.toString()).isZero();
    assertThat(report.get("records").asLong()).isGreaterThan(5_000);
    assertThat(report.get("max_stall_s").asDouble())
        .isLessThanOrEqualTo(report.get("stall_bound_s").asDouble());
    assertThat(kinds(report)).contains("partition", "pause", "kill", "broker", "split", "disk");
    assertThat(targets(report)).anyMatch(target -> target.startsWith("job with the majority: "));
    assertThat(run.out())
        .containsPattern(
            "nemesis: faults=\\d+ kinds=6 records=\\d+ lost=0 duplicated=0 aborted-reads=0"
                + " counts-off=0 order-broken=0 max-stall=[0-9.]+ s");
    String picture = Files.readString(directory.resolve("nemesis.svg"), StandardCharsets.UTF_8);
    assertThat(picture).startsWith("<svg").contains("<polyline").contains("job -/-&gt; broker-");
    assertThat(namespaces()).noneMatch(name -> name.startsWith(NAMESPACE_PREFIX));
  }

  @Test
  void when_nemesisHitsTheHaClusterForTwoMinutes_then_eachRecordIsCommittedOnce() throws Exception {
    // given: the lab in network slot 1, beside a local-job lab in slot 0
    Path json = directory.resolve("cluster-nemesis.json");

    // when
    CommandRun run =
        CommandRun.weir(
            "lab",
            "--nemesis",
            "--ha",
            "--nemesis-network",
            "1",
            "--faults",
            "zombie,leader,kill,pause",
            "--minutes",
            "2",
            "--rate",
            "200",
            "--random-seed",
            "49",
            "--timeout",
            "180",
            "--dir",
            directory.resolve("cluster-lab").toString(),
            "--json",
            json.toString());

    // then
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.get("lost").asLong()).as(report.toString()).isZero();
    assertThat(report.get("duplicated").asLong()).as(report.toString()).isZero();
    assertThat(report.get("aborted_reads").asLong()).as(report.toString()).isZero();
    assertThat(report.get("truncated_commits").asLong()).as(report.toString()).isZero();
    assertThat(report.get("records").asLong()).isGreaterThan(5_000);
    assertThat(report.get("max_stall_s").asDouble())
        .isLessThanOrEqualTo(report.get("stall_bound_s").asDouble());
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
  void when_aClusterFaultIsAskedWithoutTheCluster_then_oneLineSaysSo() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis", "--faults", "kill,zombie");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --faults: zombie needs the HA cluster: add --ha");
  }

  @Test
  void when_aNemesisLabLeftANamespace_then_cleanupRemovesIt() throws Exception {
    // given: a namespace as a crashed lab leaves it
    ip("netns", "add", NAMESPACE_PREFIX + "leftover");

    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis-cleanup");

    // then
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("namespace " + NAMESPACE_PREFIX + "leftover");
    assertThat(namespaces()).noneMatch(name -> name.startsWith(NAMESPACE_PREFIX));
  }

  @Test
  void when_labsUseDifferentNetworkSlots_then_cleanupOfOneLeavesTheOther() throws Exception {
    // given: leftovers of a lab in slot 0 and of one in slot 3
    ip("netns", "add", NAMESPACE_PREFIX + "slot-zero");
    ip("netns", "add", "weir-nemesis3-slot-three");

    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis-cleanup", "--nemesis-network", "3");

    // then
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("namespace weir-nemesis3-slot-three");
    assertThat(namespaces())
        .contains(NAMESPACE_PREFIX + "slot-zero")
        .doesNotContain("weir-nemesis3-slot-three");
    ip("netns", "del", NAMESPACE_PREFIX + "slot-zero");
  }

  @Test
  void when_anUnknownFaultKindIsAsked_then_oneLineNamesIt() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis", "--faults", "pause,flood");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --faults: unknown fault kind 'flood'; known:"
                + " partition,pause,kill,broker,split,disk,zombie,leader");
  }

  @Test
  void when_anUnknownNemesisJobIsAsked_then_oneLineNamesIt() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis", "--job", "word-join");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --job: the nemesis lab runs no job 'word-join'; known: seed,running-count");
  }

  private static List<String> kinds(JsonNode report) {
    List<String> kinds = new ArrayList<>();
    report.get("faults").forEach(fault -> kinds.add(fault.get("kind").asText()));
    return kinds;
  }

  private static List<String> targets(JsonNode report) {
    List<String> targets = new ArrayList<>();
    report.get("faults").forEach(fault -> targets.add(fault.get("target").asText()));
    return targets;
  }

  private static List<String> namespaces() throws IOException, InterruptedException {
    List<String> names = new ArrayList<>();
    for (String line : ip("netns", "list").split("\n")) {
      if (!line.isBlank()) {
        names.add(line.strip().split(" ")[0]);
      }
    }
    return names;
  }

  private static String ip(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
    return output;
  }
}
