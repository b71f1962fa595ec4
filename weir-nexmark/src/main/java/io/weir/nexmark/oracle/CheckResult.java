package io.weir.nexmark.oracle;

import java.util.Optional;

/** A query's output compared with its SQL's: how many rows Weir produced, and any difference. */
public record CheckResult(String query, long rows, long sqlRows, Optional<String> firstDifference) {
  public boolean matches() {
    return firstDifference.isEmpty();
  }

  /** {@code q1: rows=R matches-sql=true}, and where they differ, the SQL's count and a row. */
  public String line() {
    String line = query + ": rows=" + rows + " matches-sql=" + matches();
    return firstDifference
        .map(difference -> line + " sql-rows=" + sqlRows + " (" + difference + ")")
        .orElse(line);
  }
}
