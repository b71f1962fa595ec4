package io.weir.lab.operations;

import io.weir.lab.JsonReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the operations matrix as JSON: {@code {"cells": [{"operation", "job", "deployment",
 * "expected", "outcome", "passed", "in", "out", "lost", "duplicated", "failure"}, ...]}}. {@code
 * outcome} is {@code exactly-once}, {@code loss}, {@code duplicates}, {@code loss-and-duplicates},
 * {@code loud-failure} or {@code failed}; {@code failure} is null, the job's one-line message of a
 * loud failure, or why the cell failed.
 */
public final class OperationsJson {
  private OperationsJson() {}

  public static void write(Path file, List<OperationCellResult> results) throws IOException {
    List<Map<String, Object>> cells = new ArrayList<>();
    for (OperationCellResult result : results) {
      cells.add(cell(result));
    }
    JsonReport.write(file, Map.of("cells", cells));
  }

  private static Map<String, Object> cell(OperationCellResult result) {
    OperationOutcome outcome = result.outcome();
    Map<String, Object> cell = new LinkedHashMap<>();
    cell.put("operation", result.operation());
    cell.put("job", result.job());
    cell.put("deployment", result.deployment());
    cell.put("expected", result.expectation().name().toLowerCase(Locale.ROOT).replace('_', '-'));
    cell.put("outcome", outcome.kind().label());
    cell.put("passed", result.passed());
    cell.put("in", outcome.in());
    cell.put("out", outcome.out());
    cell.put("lost", outcome.lost());
    cell.put("duplicated", outcome.duplicated());
    cell.put("failure", outcome.failure());
    return cell;
  }
}
