package io.weir.nexmark.oracle;

import java.util.Optional;

/**
 * A query's output compared with its SQL's: how many rows Weir produced, in how many partition
 * directories (0 where the output has none), and any difference.
 */
public record CheckResult(
    String query, long rows, long sqlRows, int partitions, Optional<String> firstDifference) {
  public boolean matches() {
    return firstDifference.isEmpty();
  }

  /**
   * {@code q1: rows=R matches-sql=true} ({@code partitions=P} after the rows where the output has
   * partition directories), and where they differ, the SQL's count and a row.
   */
  public String line() {
    String counts =
        partitions > 0 ? " rows=" + rows + " partitions=" + partitions : " rows=" + rows;
    String line = query + ":" + counts + " matches-sql=" + matches();
    return firstDifference
        .map(difference -> line + " sql-rows=" + sqlRows + " (" + difference + ")")
        .orElse(line);
  }
}
