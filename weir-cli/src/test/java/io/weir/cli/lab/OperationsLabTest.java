package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --operations} against a real broker and job processes, for the rescale cells
 * (every rescale of the seed job, and one of the running count, to keep the test short), with small
 * record counts: the JSON's shape, counts that add up, and every cell exactly-once — a rescale with
 * pre-committed, un-notified transactions as well as the control cell (a restore at the same
 * parallelism).
 */
class OperationsLabTest {
  private static final Set<String> OUTCOMES =
      Set.of("exactly-once", "loss", "duplicates", "loss-and-duplicates", "loud-failure", "failed");

  @TempDir Path directory;

  @Test
  void when_rescaleCellsRun_then_theirCountsAddUpAndEveryCellIsExactlyOnce() throws Exception {
    // given
    Path json = directory.resolve("operations.json");

    // when
    int exitCode =
        WeirCli.run(
            "lab",
            "--operations",
            "--cells",
            "rescale-1-1/seed,rescale-1-2,rescale-2-4/seed,rescale-4-1/seed",
            "--dir",
            directory.resolve("lab").toString(),
            "--rate",
            "300",
            "--records",
            "300",
            "--timeout",
            "150",
            "--json",
            json.toString());

    // then
    JsonNode cells = new ObjectMapper().readTree(json.toFile()).get("cells");
    assertThat(cells).hasSize(5);
    Map<String, JsonNode> byName = new HashMap<>();
    List<Boolean> passed = new ArrayList<>();
    for (JsonNode cell : cells) {
      assertThat(cell.fieldNames())
          .toIterable()
          .contains("operation", "job", "outcome", "lost", "duplicated", "failure");
      assertThat(cell.get("outcome").asText()).isIn(OUTCOMES);
      assertCountsAddUp(cell);
      byName.put(cell.get("operation").asText() + "/" + cell.get("job").asText(), cell);
      passed.add(cell.get("passed").asBoolean());
    }
    assertThat(byName)
        .containsOnlyKeys(
            "rescale-1-1/seed",
            "rescale-1-2/seed",
            "rescale-1-2/running-count",
            "rescale-2-4/seed",
            "rescale-4-1/seed");
    for (JsonNode cell : byName.values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      // input arrived before the halt, so a pending transaction held records
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    assertThat(passed).containsOnly(true);
    assertThat(exitCode).isZero();
  }

  /** A counted cell: out = in - lost + duplicated; a failed one names why. */
  private static void assertCountsAddUp(JsonNode cell) {
    long in = cell.get("in").asLong();
    long out = cell.get("out").asLong();
    long lost = cell.get("lost").asLong();
    long duplicated = cell.get("duplicated").asLong();
    String outcome = cell.get("outcome").asText();
    assertThat(lost).as(cell.toString()).isBetween(0L, in);
    assertThat(duplicated).as(cell.toString()).isNotNegative();
    if (outcome.equals("failed")) {
      assertThat(cell.get("failure").asText()).as(cell.toString()).isNotBlank();
      return;
    }
    assertThat(out).as(cell.toString()).isEqualTo(in - lost + duplicated);
    assertThat(lost > 0).as(cell.toString()).isEqualTo(outcome.startsWith("loss"));
    assertThat(duplicated > 0).as(cell.toString()).isEqualTo(outcome.contains("duplicates"));
    assertThat(cell.get("failure").isNull()).as(cell.toString()).isTrue();
  }
}
