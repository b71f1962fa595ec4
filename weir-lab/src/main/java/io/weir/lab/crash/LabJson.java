package io.weir.lab.crash;

import io.weir.lab.JsonReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the matrix as JSON: {@code {"cells": [...]}}, each cell with {@code order}, {@code crash},
 * {@code recovery}, {@code outcome}, {@code lost}, {@code duplicated}, {@code seed_outcome}, {@code
 * checkpoint_id}, {@code failure} and the three {@code monitors} read right after the crash (null
 * when they could not be read).
 */
public final class LabJson {
  private LabJson() {}

  public static void write(Path file, List<CellResult> results) throws IOException {
    List<Map<String, Object>> cells = new ArrayList<>();
    for (CellResult result : results) {
      cells.add(cell(result));
    }
    JsonReport.write(file, Map.of("cells", cells));
  }

  private static Map<String, Object> cell(CellResult result) {
    Outcome outcome = result.outcome();
    Map<String, Object> cell = new LinkedHashMap<>();
    cell.put("order", result.crash().order().key());
    cell.put("crash", result.crash().key());
    cell.put("recovery", result.recovery().key());
    cell.put("outcome", outcome.label());
    cell.put("lost", outcome.lost());
    cell.put("duplicated", outcome.duplicated());
    cell.put("seed_outcome", result.seedOutcome().label());
    cell.put("checkpoint_id", result.checkpointId());
    cell.put("failure", outcome.failure());
    cell.put("monitors", monitors(result.monitors()));
    return cell;
  }

  private static Map<String, Object> monitors(Monitors monitors) {
    if (monitors == null) {
      return null;
    }
    Map<String, Object> read = new LinkedHashMap<>();
    read.put("bar_read_uncommitted", monitors.readUncommitted());
    read.put("bar_read_committed", monitors.readCommitted());
    read.put("group_committed_offsets", monitors.groupOffsets());
    return read;
  }
}
