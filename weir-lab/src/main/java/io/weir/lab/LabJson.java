package io.weir.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the matrix as JSON: {@code {"cells": [...]}}, one cell object per line, each with {@code
 * order}, {@code crash}, {@code recovery}, {@code outcome}, {@code lost}, {@code duplicated},
 * {@code seed_outcome}, {@code checkpoint_id}, {@code failure} and the three {@code monitors} read
 * right after the crash.
 */
public final class LabJson {
  private LabJson() {}

  public static void write(Path file, List<CellResult> results) throws IOException {
    List<String> cells = new ArrayList<>();
    for (CellResult result : results) {
      cells.add("    " + cell(result));
    }
    String json = "{\n  \"cells\": [\n" + String.join(",\n", cells) + "\n  ]\n}\n";
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, json);
  }

  static String cell(CellResult result) {
    Outcome outcome = result.outcome();
    Monitors monitors = result.monitors();
    return "{\"order\": "
        + string(result.crash().order().key())
        + ", \"crash\": "
        + string(result.crash().key())
        + ", \"recovery\": "
        + string(result.recovery().key())
        + ", \"outcome\": "
        + string(outcome.label())
        + ", \"lost\": "
        + outcome.lost()
        + ", \"duplicated\": "
        + outcome.duplicated()
        + ", \"seed_outcome\": "
        + string(result.seedOutcome().label())
        + ", \"checkpoint_id\": "
        + result.checkpointId()
        + ", \"failure\": "
        + (outcome.failure() == null ? "null" : string(outcome.failure()))
        + ", \"monitors\": "
        + (monitors == null
            ? "null"
            : "{\"bar_read_uncommitted\": "
                + monitors.readUncommitted()
                + ", \"bar_read_committed\": "
                + monitors.readCommitted()
                + ", \"group_committed_offsets\": "
                + monitors.groupOffsets()
                + "}")
        + "}";
  }

  private static String string(String text) {
    StringBuilder quoted = new StringBuilder("\"");
    for (char character : text.toCharArray()) {
      switch (character) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        default -> {
          if (character < 0x20) {
            quoted.append(String.format("\\u%04x", (int) character));
          } else {
            quoted.append(character);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }
}
