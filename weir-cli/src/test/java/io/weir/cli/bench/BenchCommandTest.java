package io.weir.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.CommandRun;
import io.weir.cli.WeirCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir bench --in-memory} on a few records: figures on the terminal and in the JSON. */
class BenchCommandTest {
  @TempDir Path directory;

  @Test
  void when_benchInMemory_then_printsAndWritesThroughputOfBothRuns() throws Exception {
    // given
    Path json = directory.resolve("bench.json");
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream previous = System.out;

    // when
    int exitCode;
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      exitCode =
          WeirCli.run("bench", "--in-memory", "--records", "20000", "--json", json.toString());
    } finally {
      System.setOut(previous);
    }

    // then
    assertThat(exitCode).isZero();
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("checkpoints off:")
        .contains("checkpoints every 1s:");
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.at("/in_memory/records").asLong()).isEqualTo(20_000);
    assertThat(report.at("/in_memory/records_per_s").asLong()).isPositive();
    assertThat(report.at("/in_memory_checkpointed/records_per_s").asLong()).isPositive();
    assertThat(report.at("/in_memory_checkpointed/mean_checkpoint_ms").isNumber()).isTrue();
  }

  @Test
  void when_benchBackpressure_then_writesEveryModeWithItsCheckpointFigures() throws Exception {
    // given
    Path json = directory.resolve("backpressure.json");

    // when
    CommandRun run =
        CommandRun.weir(
            "bench",
            "--backpressure",
            "--records",
            "3000",
            "--unloaded-records",
            "20000",
            "--dir",
            directory.resolve("work").toString(),
            "--json",
            json.toString());

    // then
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("aligned").contains("unaligned").contains("aligned_adaptive");
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    for (String mode : new String[] {"aligned", "unaligned", "aligned_adaptive"}) {
      JsonNode figures = report.get(mode);
      // Checkpoints completed while the job ran; the median may be 0 ms (one under a millisecond)
      assertThat(figures.get("checkpoints").asLong()).isPositive();
      assertThat(figures.get("checkpoint_p50_ms").asLong()).isNotNegative();
      assertThat(figures.get("checkpoint_p99_ms").asLong())
          .isGreaterThanOrEqualTo(figures.get("checkpoint_p50_ms").asLong());
      assertThat(figures.get("lost").asLong()).isZero();
      assertThat(figures.get("duplicated").asLong()).isZero();
      assertThat(figures.get("throughput_ratio_unloaded").asDouble()).isPositive();
      // the slowed map's gate held records while the job ran
      assertThat(figures.get("max_inflight_bytes").asLong()).isPositive();
    }
    assertThat(report.at("/aligned/max_checkpoint_inflight_bytes").asLong()).isZero();
    assertThat(report.at("/unaligned/max_checkpoint_inflight_bytes").asLong()).isPositive();
  }

  @Test
  void when_sessionWithoutTheKafkaComparison_then_failsNamingTheOptions() {
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    PrintStream previous = System.err;
    System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
    int exit;
    try {
      exit = WeirCli.run("bench", "--in-memory", "--session");
    } finally {
      System.setErr(previous);
    }

    assertThat(exit).isNotZero();
    assertThat(errors.toString(StandardCharsets.UTF_8))
        .contains("--session adds a run to the Kafka comparison");
  }

  @Test
  void when_recordsNotPositive_then_failsNamingTheOption() {
    assertThat(WeirCli.run("bench", "--in-memory", "--records", "0")).isNotZero();
  }

  @Test
  void when_pacedRunTooShortToMeasure_then_failsNamingTheOption() {
    // given: 4 partitions and the last 3 s of 1,000 events/s are not measured
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    PrintStream previous = System.err;
    System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
    int exit;
    try {
      // when
      exit =
          WeirCli.run(
              "bench", "--nexmark", "--queries", "q0", "--events", "3004", "--paced-rate", "1000");
    } finally {
      System.setErr(previous);
    }

    // then
    assertThat(exit).isNotZero();
    assertThat(errors.toString(StandardCharsets.UTF_8))
        .contains("--events must exceed 3004 with --paced-rate 1000");
  }
}
