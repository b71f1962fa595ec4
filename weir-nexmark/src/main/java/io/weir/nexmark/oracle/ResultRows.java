package io.weir.nexmark.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.nexmark.model.NexmarkJson;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A query's complete result as canonical rows: each row its values as text in column order (a JSON
 * array), the rows sorted, so two results are equal exactly when they hold the same rows the same
 * number of times, whatever order they were produced in.
 */
public record ResultRows(List<String> columns, List<String> rows) {
  public ResultRows {
    columns = List.copyOf(columns);
    rows = rows.stream().sorted().toList();
  }

  /** Rows from JSON objects, one per result, their fields taken by column name. */
  public static ResultRows fromJsonObjects(List<String> columns, Collection<String> objects) {
    List<String> rows = new ArrayList<>(objects.size());
    for (String object : objects) {
      JsonNode node = NexmarkJson.tree(object);
      List<String> values = new ArrayList<>(columns.size());
      for (String column : columns) {
        JsonNode value = node.get(column);
        if (value == null) {
          throw new IllegalArgumentException(
              "result row " + object + " has no field '" + column + "'");
        }
        values.add(value.isNull() ? null : value.asText());
      }
      rows.add(NexmarkJson.array(values));
    }
    return new ResultRows(columns, rows);
  }

  /** The first row, in sorted order, that one side has and the other lacks (or has fewer of). */
  public Optional<String> firstDifference(ResultRows other) {
    int mine = 0;
    int theirs = 0;
    while (mine < rows.size() && theirs < other.rows.size()) {
      int order = rows.get(mine).compareTo(other.rows.get(theirs));
      if (order == 0) {
        mine++;
        theirs++;
      } else if (order < 0) {
        return Optional.of("only in Weir's output: " + rows.get(mine));
      } else {
        return Optional.of("only in SQL's output: " + other.rows.get(theirs));
      }
    }
    if (mine < rows.size()) {
      return Optional.of("only in Weir's output: " + rows.get(mine));
    }
    if (theirs < other.rows.size()) {
      return Optional.of("only in SQL's output: " + other.rows.get(theirs));
    }
    return Optional.empty();
  }
}
