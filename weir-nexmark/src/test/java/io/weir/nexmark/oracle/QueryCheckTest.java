package io.weir.nexmark.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.NexmarkQuery;
import io.weir.nexmark.queries.Query7;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryCheckTest {
  private static final GeneratorConfig CONFIG = GeneratorConfig.defaults().withEventsPerSecond(200);

  @TempDir Path work;

  @Test
  void when_aWindowedQueryRunsInProcessInParallel_then_itsCommittedFilesEqualTheSql()
      throws Exception {
    CheckResult result = QueryCheck.runInProcess(new Query7(), CONFIG, 4_000, 2, work);

    assertThat(result.matches()).as(result.line()).isTrue();
    assertThat(result.rows()).isPositive();
  }

  @Test
  void when_theJobAndTheSqlDisagree_then_theCheckNamesARowOnlyOneHas() throws Exception {
    // given: q7's operators against SQL that keeps the lowest bids instead
    NexmarkQuery<Query7.HighestBid> wrong =
        new NexmarkQuery<>() {
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
        };

    // when
    CheckResult result = QueryCheck.runInProcess(wrong, CONFIG, 2_000, 1, work);

    // then
    assertThat(result.matches()).isFalse();
    assertThat(result.line()).startsWith("q7: rows=").contains("matches-sql=false", "only in");
  }
}
