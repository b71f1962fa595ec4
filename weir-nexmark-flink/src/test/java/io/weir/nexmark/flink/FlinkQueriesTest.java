package io.weir.nexmark.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.nexmark.queries.NexmarkQueries;
import io.weir.nexmark.queries.NexmarkQuery;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench compares the engines on every query: each Weir query has its Flink version. */
class FlinkQueriesTest {
  @Test
  void when_lookingUpEveryWeirQuery_then_flinkHasAVersionOfIt() {
    // given
    List<String> weirQueries = NexmarkQueries.all().stream().map(NexmarkQuery::name).toList();
    // then
    assertThat(weirQueries).hasSize(23);
    for (String name : weirQueries) {
      assertThat(FlinkQueries.named(name)).as(name).isPresent();
    }
    assertThat(FlinkQueries.named("q23")).isEmpty();
  }
}
