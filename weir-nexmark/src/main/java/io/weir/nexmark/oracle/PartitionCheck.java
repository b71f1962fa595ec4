package io.weir.nexmark.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.nexmark.model.NexmarkJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Checks where a partitioned query's results were written: each row in the directory its partition
 * columns name ({@code dt=2026-01-01/hm=23:59}), and each directory holding as many rows as the
 * SQL's {@code GROUP BY} on those columns counts.
 */
final class PartitionCheck {
  private PartitionCheck() {}

  /** The directory of a partition: {@code column=value} for each column, joined by {@code /}. */
  static String directoryOf(List<String> columns, List<String> values) {
    List<String> names = new ArrayList<>(columns.size());
    for (int column = 0; column < columns.size(); column++) {
      names.add(columns.get(column) + "=" + values.get(column));
    }
    return String.join("/", names);
  }

  /**
   * The first row in another directory than its columns name, else the first partition whose row
   * count differs from the SQL's ({@code sqlRowsPerDirectory}, keyed by {@link #directoryOf}).
   */
  static Optional<String> firstDifference(
      List<String> columns,
      Map<String, List<String>> linesByDirectory,
      Map<String, Long> sqlRowsPerDirectory) {
    Map<String, Long> rowsPerDirectory = new TreeMap<>();
    for (Map.Entry<String, List<String>> directory : linesByDirectory.entrySet()) {
      for (String line : directory.getValue()) {
        String named = directoryOf(columns, values(columns, line));
        if (!named.equals(directory.getKey())) {
          return Optional.of(
              "row " + line + " is in directory '" + directory.getKey() + "', not '" + named + "'");
        }
      }
      rowsPerDirectory.put(directory.getKey(), (long) directory.getValue().size());
    }
    TreeSet<String> directories = new TreeSet<>(rowsPerDirectory.keySet());
    directories.addAll(sqlRowsPerDirectory.keySet());
    for (String directory : directories) {
      long rows = rowsPerDirectory.getOrDefault(directory, 0L);
      long sqlRows = sqlRowsPerDirectory.getOrDefault(directory, 0L);
      if (rows != sqlRows) {
        return Optional.of(
            "directory '" + directory + "' holds " + rows + " rows, the SQL counts " + sqlRows);
      }
    }
    return Optional.empty();
  }

  private static List<String> values(List<String> columns, String line) {
    JsonNode row = NexmarkJson.tree(line);
    List<String> values = new ArrayList<>(columns.size());
    for (String column : columns) {
      JsonNode value = row.get(column);
      if (value == null) {
        throw new IllegalArgumentException("result row " + line + " has no field '" + column + "'");
      }
      values.add(value.asText());
    }
    return values;
  }
}
