package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs {@code weir lab --operations} on a test's broker with small record counts and reads its
 * JSON: each cell by {@code operation/job/deployment}, each checked for the JSON's shape and for
 * counts that add up ({@code out = in - lost + duplicated}; a failed cell names why).
 */
final class OperationsCells {
  private static final Set<String> OUTCOMES =
      Set.of("exactly-once", "loss", "duplicates", "loss-and-duplicates", "loud-failure", "failed");

  /** What one run of the matrix printed and wrote. */
  record Run(int exitCode, Map<String, JsonNode> cells) {}

  private OperationsCells() {}

  /**
   * Runs the {@code cells} on {@code deployments} against the broker at {@code bootstrap}, in
   * {@code directory}; {@code extraOptions} go before them (e.g. {@code --sink postgres}).
   */
  static Run run(
      String bootstrap, Path directory, String cells, String deployments, String... extraOptions)
      throws Exception {
    Path json = directory.resolve("operations.json");
    List<String> arguments = new ArrayList<>(List.of("lab", "--operations"));
    arguments.addAll(List.of(extraOptions));
    arguments.addAll(
        List.of(
            "--bootstrap",
            bootstrap,
            "--deployments",
            deployments,
            "--cells",
            cells,
            "--dir",
            directory.resolve("lab").toString(),
            "--rate",
            "300",
            "--records",
            "300",
            "--timeout",
            "150",
            "--json",
            json.toString()));
    int exitCode = WeirCli.run(arguments.toArray(String[]::new));
    Map<String, JsonNode> byName = new LinkedHashMap<>();
    for (JsonNode cell : new ObjectMapper().readTree(json.toFile()).get("cells")) {
      assertThat(cell.fieldNames())
          .toIterable()
          .contains("operation", "job", "deployment", "outcome", "lost", "duplicated", "failure");
      assertThat(cell.get("outcome").asText()).isIn(OUTCOMES);
      assertCountsAddUp(cell);
      byName.put(
          cell.get("operation").asText()
              + "/"
              + cell.get("job").asText()
              + "/"
              + cell.get("deployment").asText(),
          cell);
    }
    return new Run(exitCode, byName);
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
    if (outcome.equals("loud-failure")) {
      assertThat(cell.get("failure").asText()).as(cell.toString()).startsWith("weir: ");
      return;
    }
    assertThat(out).as(cell.toString()).isEqualTo(in - lost + duplicated);
    assertThat(lost > 0).as(cell.toString()).isEqualTo(outcome.startsWith("loss"));
    assertThat(duplicated > 0).as(cell.toString()).isEqualTo(outcome.contains("duplicates"));
    assertThat(cell.get("failure").isNull()).as(cell.toString()).isTrue();
  }

  /** Every cell passed (the outcome its operation must end in) and the run's exit code is 0. */
  static void assertEveryCellPassed(Run run) {
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("passed").asBoolean()).as(cell.toString()).isTrue();
    }
    assertThat(run.exitCode()).isZero();
  }
}
