package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code weir lab} against real brokers and job processes, in the configuration the seed describes
 * (each source commits its offsets on its own notification), with small record counts.
 */
// Two cases at a time: each lab mostly waits for its paced input and its jobs' processes, and
// each names its topics, groups and directories apart.
@Execution(ExecutionMode.CONCURRENT)
class LabCommandTest {
  @TempDir Path directory;

  @Test
  void when_matrixRunsOnOneBroker_then_everyCellIsExactlyOnceTheGroupOffsetColumnIncluded()
      throws Exception {
    // given
    Path json = directory.resolve("lab.json");

    // when
    int exitCode =
        WeirCli.run(
            "lab",
            "--reuse-broker",
            "--dir",
            directory.resolve("lab").toString(),
            "--rate",
            "300",
            "--records",
            "300",
            "--crash-at",
            "2",
            "--json",
            json.toString());

    // then: the seed lost or doubled records in the group-offset column; Weir reconciles them
    assertThat(exitCode).isZero();
    Map<String, String> outcomes = outcomes(json);
    assertThat(outcomes)
        .containsOnly(
            entry("sink-first/after-sink-commit/checkpoint", "exactly-once"),
            entry("sink-first/before-sink-commit/checkpoint", "exactly-once"),
            entry("source-first/after-source-commit/checkpoint", "exactly-once"),
            entry("source-first/before-source-commit/checkpoint", "exactly-once"),
            entry("sink-first/after-sink-commit/group-offsets", "exactly-once"),
            entry("sink-first/before-sink-commit/group-offsets", "exactly-once"),
            entry("source-first/after-source-commit/group-offsets", "exactly-once"),
            entry("source-first/before-source-commit/group-offsets", "exactly-once"));
  }

  @Test
  void when_soakKillsRescalesStopsWithSavepointsAndKillsTheBroker_then_nothingIsLostOrDuplicated()
      throws Exception {
    // given
    Path json = directory.resolve("soak.json");

    // when: the broker is killed after round 1, round 2 stops with a savepoint on a cluster
    int exitCode =
        WeirCli.run(
            "lab",
            "--soak",
            "--operations",
            "--minutes",
            "1",
            "--rate",
            "300",
            "--random-seed",
            "7",
            "--timeout",
            "150",
            "--dir",
            directory.resolve("soak").toString(),
            "--json",
            json.toString());

    // then
    JsonNode result = new ObjectMapper().readTree(json.toFile());
    assertThat(exitCode).as(result.toString()).isZero();
    assertThat(result.get("lost").asLong()).isZero();
    assertThat(result.get("duplicated").asLong()).isZero();
    assertThat(result.get("job_kills").asLong()).isPositive();
    assertThat(result.get("savepoint_stops").asLong()).isGreaterThanOrEqualTo(1);
    assertThat(result.get("broker_kills").asLong()).isGreaterThanOrEqualTo(1);
    assertThat(result.get("records").asLong()).isGreaterThan(1000);
  }

  private static Map<String, String> outcomes(Path json) throws Exception {
    Map<String, String> outcomes = new HashMap<>();
    for (JsonNode cell : new ObjectMapper().readTree(json.toFile()).get("cells")) {
      outcomes.put(
          cell.get("order").asText()
              + "/"
              + cell.get("crash").asText()
              + "/"
              + cell.get("recovery").asText(),
          cell.get("outcome").asText());
    }
    return outcomes;
  }
}
