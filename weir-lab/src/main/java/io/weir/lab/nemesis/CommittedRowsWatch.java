package io.weir.lab.nemesis;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Counts the committed rows of PostgreSQL's updates table (one row per input record) every look, as
 * a reader of the database would, and notes each look that found more than the last: the
 * availability timeline of {@code --sink postgres}. A database shows committed rows only, so there
 * is no aborted read to look for here.
 *
 * <p>A look that fails or times out (the server paused, killed or restarting) is skipped: the
 * timeline shows no arrival then, as a reader would have seen none.
 */
final class CommittedRowsWatch implements OutputWatch {
  private static final Duration LOOK_INTERVAL = Duration.ofMillis(500);

  /** Bounds each look, so that a paused server holds up the watch no longer than this. */
  private static final String LOOK_TIMEOUTS = "&connectTimeout=5&socketTimeout=5";

  private final String jdbcUrl;
  private final String table;
  private final Clock clock;
  private final ScheduledExecutorService looks =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "nemesis-watch-rows");
            thread.setDaemon(true);
            return thread;
          });
  private final List<Arrival> arrivals = new ArrayList<>();
  private long committed;

  private CommittedRowsWatch(String jdbcUrl, String table, Clock clock) {
    this.jdbcUrl = jdbcUrl + LOOK_TIMEOUTS;
    this.table = table;
    this.clock = clock;
  }

  /** Starts counting the rows of {@code table} (none while the job has not created it). */
  static CommittedRowsWatch start(String jdbcUrl, String table, Clock clock) {
    CommittedRowsWatch watch = new CommittedRowsWatch(jdbcUrl, table, clock);
    watch.looks.scheduleWithFixedDelay(
        watch::look, 0, LOOK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    return watch;
  }

  private void look() {
    long rows;
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement()) {
      rows = exists(statement) ? count(statement) : 0;
    } catch (SQLException unreachable) {
      return;
    }
    synchronized (this) {
      if (rows > committed) {
        committed = rows;
        arrivals.add(new Arrival(clock.instant(), rows));
      }
    }
  }

  private boolean exists(Statement statement) throws SQLException {
    try (ResultSet result = statement.executeQuery("SELECT to_regclass('" + table + "')")) {
      return result.next() && result.getString(1) != null;
    }
  }

  private long count(Statement statement) throws SQLException {
    try (ResultSet result = statement.executeQuery("SELECT count(*) FROM " + table)) {
      result.next();
      return result.getLong(1);
    }
  }

  @Override
  public synchronized long committed() {
    return committed;
  }

  @Override
  public synchronized List<Arrival> arrivals() {
    return List.copyOf(arrivals);
  }

  @Override
  public Map<Integer, Set<Long>> offsets() {
    return Map.of();
  }

  @Override
  public void close() throws InterruptedException {
    looks.shutdownNow();
    looks.awaitTermination(1, TimeUnit.MINUTES);
  }
}
