package io.weir.nexmark.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.NexmarkQuery;
import io.weir.nexmark.queries.Query10;
import io.weir.nexmark.queries.Query10.LoggedBid;
import io.weir.nexmark.queries.Query7;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryCheckTest {
  private static final GeneratorConfig CONFIG = GeneratorConfig.defaults().withEventsPerSecond(200);

  // 20 events a second of event time from 90 s before midnight: 4,000 events span 200 s, four
  // minutes over two days, so q10 writes into four partition directories.
  private static final GeneratorConfig ACROSS_MIDNIGHT =
      new GeneratorConfig(0, 20, Instant.parse("2026-01-01T23:58:30Z"), 100);

  @TempDir Path work;

  @Test
  void when_aWindowedQueryRunsInProcessInParallel_then_itsCommittedFilesEqualTheSql()
      throws Exception {
    CheckResult result = QueryCheck.runInProcess(new Query7(), CONFIG, 4_000, 2, work);

    assertThat(result.matches()).as(result.line()).isTrue();
    assertThat(result.rows()).isPositive();
  }

  @Test
  void when_q10WritesToFiles_then_eachRowIsInItsPartitionAndEachPartitionCountEqualsTheSql()
      throws Exception {
    // when
    CheckResult result = QueryCheck.runInProcess(new Query10(), ACROSS_MIDNIGHT, 4_000, 2, work);

    // then: the rows, the rows' directories and the rows per directory agree with DuckDB's
    assertThat(result.matches()).as(result.line()).isTrue();
    assertThat(result.line()).startsWith("q10: rows=" + result.rows() + " partitions=4 ");
    assertThat(partitionDirectories(work.resolve("results")))
        .containsExactly(
            "dt=2026-01-01/hm=23:58",
            "dt=2026-01-01/hm=23:59",
            "dt=2026-01-02/hm=00:00",
            "dt=2026-01-02/hm=00:01");
  }

  @Test
  void when_aRowIsWrittenOutsideItsPartition_then_theCheckNamesItsDirectory() throws Exception {
    // given: q10 that writes the bids of minute 23:59 into the directory of 23:58
    NexmarkQuery<LoggedBid> misplacing = new MisplacingQuery10();

    // when
    CheckResult result = QueryCheck.runInProcess(misplacing, ACROSS_MIDNIGHT, 4_000, 1, work);

    // then
    assertThat(result.matches()).isFalse();
    assertThat(result.line())
        .contains("matches-sql=false")
        .contains("is in directory 'dt=2026-01-01/hm=23:58', not 'dt=2026-01-01/hm=23:59'");
  }

  /** The directories below {@code results} that hold files, relative, sorted. */
  private static List<String> partitionDirectories(Path results) throws Exception {
    try (Stream<Path> files = Files.walk(results)) {
      return files
          .filter(Files::isRegularFile)
          .map(file -> results.relativize(file.getParent()).toString())
          .filter(directory -> !directory.startsWith("."))
          .distinct()
          .sorted()
          .toList();
    }
  }

  private static final class MisplacingQuery10 implements NexmarkQuery<LoggedBid> {
    private final Query10 query = new Query10();

    @Override
    public String name() {
      return query.name();
    }

    @Override
    public String description() {
      return query.description();
    }

    @Override
    public DataStream<LoggedBid> apply(DataStream<Event> events) {
      return query.apply(events);
    }

    @Override
    public String sql() {
      return query.sql();
    }

    @Override
    public List<String> partitionColumns() {
      return query.partitionColumns();
    }

    @Override
    public String partitionOf(LoggedBid bid) {
      return query.partitionOf(bid).replace("hm=23:59", "hm=23:58");
    }
  }

  @Test
  void when_theJobAndTheSqlDisagree_then_theCheckNamesARowOnlyOneHas() throws Exception {
    // given: q7's operators against SQL that keeps the lowest bids instead
    NexmarkQuery<Query7.HighestBid> wrong = new LowestBidsQuery7();

    // when
    CheckResult result = QueryCheck.runInProcess(wrong, CONFIG, 2_000, 1, work);

    // then
    assertThat(result.matches()).isFalse();
    assertThat(result.line()).startsWith("q7: rows=").contains("matches-sql=false", "only in");
  }

  private static final class LowestBidsQuery7 implements NexmarkQuery<Query7.HighestBid> {
    private final Query7 query = new Query7();

    @Override
    public String name() {
      return "q7";
    }

    @Override
    public String description() {
      return query.description();
    }

    @Override
    public DataStream<Query7.HighestBid> apply(DataStream<Event> events) {
      return query.apply(events);
    }

    @Override
    public String sql() {
      return query.sql().replace("max(price)", "min(price)");
    }
  }
}
