package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.cli.CommandRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --nemesis}: its refusals in one line and its clean-up of what a lab left behind
 * ({@link NemesisRunsTest} runs the labs). Runs as root, as the build's machines do.
 */
class NemesisLabTest {
  static final String NAMESPACE_PREFIX = "weir-nemesis-";

  @TempDir Path directory;

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
  void when_theNetworkSlotIsOutOfRange_then_oneLineNamesTheRange() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis-cleanup", "--nemesis-network", "10");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip()).isEqualTo("weir: --nemesis-network is 0 to 9, not 10");
  }

  @Test
  void when_nemesisIsAskedWithTheSoak_then_oneLineSaysToDropIt() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis", "--soak");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo("weir: --nemesis runs its own jobs: drop --soak, --operations");
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
            "weir: --job: the nemesis lab runs no job 'word-join'; known: seed,running-count,window-join");
  }

  @Test
  void when_postgresIsAskedForTheSeedJob_then_oneLineSaysWhichJobWritesThere() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis", "--sink", "postgres");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --sink postgres: the nemesis lab writes PostgreSQL from the running count"
                + " only; add --job running-count");
  }

  static List<String> kinds(JsonNode report) {
    List<String> kinds = new ArrayList<>();
    report.get("faults").forEach(fault -> kinds.add(fault.get("kind").asText()));
    return kinds;
  }

  static List<String> targets(JsonNode report) {
    List<String> targets = new ArrayList<>();
    report.get("faults").forEach(fault -> targets.add(fault.get("target").asText()));
    return targets;
  }

  static List<String> namespaces() throws IOException, InterruptedException {
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
