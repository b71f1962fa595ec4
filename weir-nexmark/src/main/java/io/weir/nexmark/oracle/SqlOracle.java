package io.weir.nexmark.oracle;

import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.model.NexmarkJson;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.duckdb.DuckDBConnection;

/**
 * The correctness oracle: an in-process DuckDB database holding the same generated events, which
 * answers a query's SQL with its complete result. Used from one thread.
 */
public final class SqlOracle implements AutoCloseable {
  private final DuckDBConnection connection;

  private SqlOracle(DuckDBConnection connection) {
    this.connection = connection;
  }

  /** A database with events {@code 0 .. count-1} of {@code generator}. */
  public static SqlOracle load(EventGenerator generator, long count) throws SQLException {
    DuckDBConnection connection =
        DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
    try {
      EventTables.load(connection, generator, count);
      return new SqlOracle(connection);
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** The complete result of {@code sql}, columns named by the query's labels. */
  public ResultRows rows(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      ResultSetMetaData metadata = result.getMetaData();
      List<String> columns = new ArrayList<>();
      for (int column = 1; column <= metadata.getColumnCount(); column++) {
        columns.add(metadata.getColumnLabel(column));
      }
      List<String> rows = new ArrayList<>();
      while (result.next()) {
        List<String> values = new ArrayList<>(columns.size());
        for (int column = 1; column <= columns.size(); column++) {
          values.add(result.getString(column));
        }
        rows.add(NexmarkJson.array(values));
      }
      return new ResultRows(columns, rows);
    }
  }

  /**
   * How many rows of {@code sql}'s result each partition holds, keyed by its directory ({@code
   * dt=2026-01-01/hm=23:59}): the result grouped by {@code columns}, at least one.
   */
  public Map<String, Long> rowsPerPartition(String sql, List<String> columns) throws SQLException {
    List<String> quoted = columns.stream().map(column -> '"' + column + '"').toList();
    String selected = String.join(", ", quoted);
    String grouped = "SELECT " + selected + ", count(*) FROM (" + sql + ") GROUP BY " + selected;
    Map<String, Long> rows = new TreeMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(grouped)) {
      while (result.next()) {
        List<String> values = new ArrayList<>(columns.size());
        for (int column = 1; column <= columns.size(); column++) {
          values.add(result.getString(column));
        }
        rows.put(PartitionCheck.directoryOf(columns, values), result.getLong(columns.size() + 1));
      }
    }
    return rows;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
