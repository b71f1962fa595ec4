package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab} against real brokers and job processes, in the configuration the seed describes
 * (each source commits its offsets on its own notification), with small record counts.
 */
class LabCommandTest {
  private static final Pattern CELL =
      Pattern.compile(
          "\"order\": \"([^\"]+)\", \"crash\": \"([^\"]+)\", \"recovery\": \"([^\"]+)\","
              + " \"outcome\": \"([^\"]+)\"");

  @TempDir Path directory;

  @Test
  void when_matrixRunsOnOneBroker_then_checkpointRestoresAreExactlyOnceAndGroupOffsetsAreNot()
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

    // then
    assertThat(exitCode).isZero();
    Map<String, String> outcomes = outcomes(Files.readString(json));
    assertThat(outcomes).hasSize(8);
    assertThat(outcomes.get("sink-first/after-sink-commit/checkpoint")).isEqualTo("exactly-once");
    assertThat(outcomes.get("sink-first/before-sink-commit/checkpoint")).isEqualTo("exactly-once");
    assertThat(outcomes.get("source-first/after-source-commit/checkpoint"))
        .isEqualTo("exactly-once");
    assertThat(outcomes.get("source-first/before-source-commit/checkpoint"))
        .isEqualTo("exactly-once");
    assertThat(outcomes.get("sink-first/after-sink-commit/group-offsets"))
        .startsWith("duplicates ");
    assertThat(outcomes.get("source-first/after-source-commit/group-offsets")).startsWith("loss ");
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
    String result = Files.readString(json);
    assertThat(exitCode).as(result).isZero();
    assertThat(result).contains("\"lost\": 0,").contains("\"duplicated\": 0}");
    assertThat(number(result, "job_kills")).isPositive();
    assertThat(number(result, "savepoint_stops")).isGreaterThanOrEqualTo(1);
    assertThat(number(result, "broker_kills")).isGreaterThanOrEqualTo(1);
    assertThat(number(result, "records")).isGreaterThan(1000);
  }

  private static Map<String, String> outcomes(String json) {
    Map<String, String> outcomes = new HashMap<>();
    Matcher matcher = CELL.matcher(json);
    while (matcher.find()) {
      outcomes.put(
          matcher.group(1) + "/" + matcher.group(2) + "/" + matcher.group(3), matcher.group(4));
    }
    return outcomes;
  }

  private static long number(String json, String name) {
    Matcher matcher = Pattern.compile("\"" + name + "\": (\\d+)").matcher(json);
    assertThat(matcher.find()).as(name + " in " + json).isTrue();
    return Long.parseLong(matcher.group(1));
  }
}
