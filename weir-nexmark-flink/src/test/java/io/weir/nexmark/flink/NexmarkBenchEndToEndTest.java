package io.weir.nexmark.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir bench --nexmark} end to end: a broker, the events, one Weir and one Flink process
 * running q1, their committed rows counted and compared with the SQL; and paced, with each event's
 * latency to the commit of its offset.
 */
class NexmarkBenchEndToEndTest {
  private static final long EVENTS = 5_000;

  // Kept when the test fails: the runs' logs are there.
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path directory;

  @Test
  void when_benchRunsQ1_then_bothEnginesCommitEveryBidOnceAndTheReportSaysSo() throws Exception {
    // given
    Path json = directory.resolve("nexmark.json");
    // when
    int exitCode =
        WeirCli.run(
            "bench",
            "--nexmark",
            "--queries",
            "q1",
            "--events",
            Long.toString(EVENTS),
            "--repeat",
            "1",
            "--parallelism",
            "2",
            "--dir",
            directory.resolve("bench").toString(),
            "--json",
            json.toString(),
            "--flink-classpath",
            Path.of("target", "flink-classpath.txt").toAbsolutePath().toString());
    // then
    assertThat(exitCode).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.get("queries")).hasSize(1);
    JsonNode q1 = report.get("queries").get(0);
    assertThat(fieldNames(q1))
        .containsSubsequence(
            "query",
            "events",
            "weir_events_per_s",
            "weir_events_per_cpu_s",
            "flink_events_per_s",
            "flink_events_per_cpu_s",
            "weir_peak_rss_mib",
            "flink_peak_rss_mib",
            "output_matches_sql",
            "lost",
            "duplicated");
    assertThat(q1.get("query").asText()).isEqualTo("q1");
    assertThat(q1.get("events").asLong()).isEqualTo(EVENTS);
    long bids = bidsAmongFirstEvents();
    assertThat(q1.get("weir_rows").asLong()).isEqualTo(bids);
    assertThat(q1.get("flink_rows").asLong()).isEqualTo(bids);
    assertThat(q1.get("output_matches_sql").asBoolean()).isTrue();
    assertThat(q1.get("lost").asLong()).isZero();
    assertThat(q1.get("duplicated").asLong()).isZero();
    for (String figure :
        List.of(
            "weir_events_per_s",
            "weir_events_per_cpu_s",
            "flink_events_per_s",
            "flink_events_per_cpu_s",
            "weir_peak_rss_mib",
            "flink_peak_rss_mib")) {
      assertThat(q1.get(figure).asDouble()).as(figure).isPositive();
    }
    // Not paced: no latency.
    assertThat(report.get("paced_rate").isNull()).isTrue();
    for (String figure :
        List.of(
            "weir_latency_p50_ms",
            "weir_latency_p99_ms",
            "flink_latency_p50_ms",
            "flink_latency_p99_ms")) {
      assertThat(q1.get(figure).isNull()).as(figure).isTrue();
    }
  }

  @Test
  void when_benchIsPaced_then_bothEnginesReportLatenciesWithinTheRunAndCommitEveryBid()
      throws Exception {
    // given
    Path json = directory.resolve("nexmark-paced.json");
    long started = System.nanoTime();
    // when
    int exitCode =
        WeirCli.run(
            "bench",
            "--nexmark",
            "--queries",
            "q1",
            "--events",
            Long.toString(EVENTS),
            "--paced-rate",
            "1000",
            "--repeat",
            "1",
            "--parallelism",
            "2",
            "--dir",
            directory.resolve("bench-paced").toString(),
            "--json",
            json.toString(),
            "--flink-classpath",
            Path.of("target", "flink-classpath.txt").toAbsolutePath().toString());
    double benchMillis = (System.nanoTime() - started) / 1e6;
    // then: every bid committed once by each engine, and latencies no longer than the whole bench
    assertThat(exitCode).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.get("paced_rate").asLong()).isEqualTo(1000);
    JsonNode q1 = report.get("queries").get(0);
    long bids = bidsAmongFirstEvents();
    assertThat(q1.get("weir_rows").asLong()).isEqualTo(bids);
    assertThat(q1.get("flink_rows").asLong()).isEqualTo(bids);
    for (String engine : List.of("weir", "flink")) {
      double p50 = q1.get(engine + "_latency_p50_ms").asDouble();
      double p99 = q1.get(engine + "_latency_p99_ms").asDouble();
      assertThat(p50).as(engine + " p50").isPositive();
      assertThat(p99).as(engine + " p99").isGreaterThanOrEqualTo(p50).isLessThan(benchMillis);
    }
  }

  /** q1 writes one row per bid: counted here with a plain loop over the generator. */
  private static long bidsAmongFirstEvents() {
    EventGenerator generator = new EventGenerator(GeneratorConfig.defaults());
    long bids = 0;
    for (long position = 0; position < EVENTS; position++) {
      if (generator.generate(position).bid() != null) {
        bids++;
      }
    }
    return bids;
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
