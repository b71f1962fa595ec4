package io.weir.lab;

import io.weir.examples.SeedRecords;
import io.weir.examples.postgres.TotalsTables;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * What the PostgreSQL totals job committed, as any reader of the database sees it: the ids in
 * {@code <prefix>_updates} counted like a topic's records, and each word's aggregate in {@code
 * <prefix>_totals} compared with the aggregate of the input ids, computed here from the seed's
 * record generator (which gives an id's word and frequency).
 */
public final class TableOutput implements JobOutput {
  private final String jdbcUrl;
  private final TotalsTables tables;

  public TableOutput(String jdbcUrl, TotalsTables tables) {
    this.jdbcUrl = jdbcUrl;
    this.tables = tables;
  }

  public String jdbcUrl() {
    return jdbcUrl;
  }

  public TotalsTables tables() {
    return tables;
  }

  /** Database readers see committed rows only, whatever {@code committedOnly} says. */
  @Override
  public OutputVerifier.Reading read(boolean committedOnly) throws SQLException {
    return read();
  }

  /** How often each id appears in the updates table (none before the job created it). */
  public OutputVerifier.Reading read() throws SQLException {
    Map<Long, Integer> counts = new HashMap<>();
    long rows = 0;
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement()) {
      if (!exists(statement, tables.updates())) {
        return new OutputVerifier.Reading(counts, 0);
      }
      try (ResultSet result =
          statement.executeQuery("SELECT id, count(*) FROM " + tables.updates() + " GROUP BY id")) {
        while (result.next()) {
          int count = result.getInt(2);
          counts.put(result.getLong(1), count);
          rows += count;
        }
      }
    }
    return new OutputVerifier.Reading(counts, rows);
  }

  /**
   * The words whose committed aggregate (updates, total) differs from the aggregate of the input
   * ids, each input id counted once.
   */
  public long wordsOffReference(OutputVerifier.Reading input) throws SQLException {
    Map<String, long[]> expected = new HashMap<>();
    for (long id : input.counts().keySet()) {
      String record = SeedRecords.generate(id - SeedRecords.BASE_TIMESTAMP);
      long[] aggregate = expected.computeIfAbsent(SeedRecords.word(record), word -> new long[2]);
      aggregate[0]++;
      aggregate[1] += SeedRecords.frequency(record);
    }
    long off = 0;
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery("SELECT word, updates, total FROM " + tables.totals())) {
      while (result.next()) {
        long[] aggregate = expected.remove(result.getString(1));
        if (aggregate == null
            || aggregate[0] != result.getLong(2)
            || aggregate[1] != result.getLong(3)) {
          off++;
        }
      }
    }
    return off + expected.size();
  }

  /** Input ids 0..n-1 as a reading, for a demo that loaded exactly those. */
  public static OutputVerifier.Reading inputOf(long records) {
    Map<Long, Integer> counts = new HashMap<>();
    for (long index = 0; index < records; index++) {
      counts.put(SeedRecords.BASE_TIMESTAMP + index, 1);
    }
    return new OutputVerifier.Reading(counts, records);
  }

  private static boolean exists(Statement statement, String table) throws SQLException {
    try (ResultSet result = statement.executeQuery("SELECT to_regclass('" + table + "')")) {
      return result.next() && result.getString(1) != null;
    }
  }
}
