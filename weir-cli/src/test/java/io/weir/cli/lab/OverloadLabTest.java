package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.WeirCli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --overload} for a minute: the seed job with unaligned checkpoints, fed at three
 * times what its slowed map processes and then below it, killed with SIGKILL while its newest
 * checkpoint holds records in flight, and restarted from that checkpoint.
 */
class OverloadLabTest {
  @TempDir Path directory;

  @Test
  void when_overloadedAndKilledWithRecordsInFlight_then_everyRecordIsCommittedOnce()
      throws Exception {
    // given
    Path json = directory.resolve("overload.json");

    // when
    int exitCode =
        WeirCli.run(
            "lab",
            "--overload",
            "--minutes",
            "1",
            "--unaligned",
            "--kill",
            "--timeout",
            "150",
            "--dir",
            directory.resolve("lab").toString(),
            "--json",
            json.toString());

    // then: every input record exactly once, the kill hit a checkpoint with records in flight,
    // and the job survived the overload without a restart of its own
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.path("records").asLong()).as(report.toString()).isPositive();
    assertThat(report.path("lost").asLong()).as(report.toString()).isZero();
    assertThat(report.path("duplicated").asLong()).as(report.toString()).isZero();
    assertThat(report.path("kills").asInt()).isEqualTo(1);
    assertThat(report.path("killed_with_records_in_flight").asBoolean())
        .as(report.toString())
        .isTrue();
    assertThat(report.path("restarts").asInt()).as(report.toString()).isZero();
    assertThat(report.path("checkpoints_completed").asInt()).isPositive();
    assertThat(report.path("phases")).hasSize(2);
    assertThat(report.path("phases").get(0).path("kind").asText()).isEqualTo("overload");
    assertThat(report.path("phases").get(0).path("fed_per_second").asLong())
        .as("the overload phase fed faster than the recovery phase")
        .isGreaterThan(report.path("phases").get(1).path("fed_per_second").asLong());
    assertThat(report.path("anomalies").toString()).doesNotContain("OutOfMemoryError", "ended");
    // the job processes' peak resident memory was read, beside the heap they were limited to
    assertThat(report.path("peak_rss_mib").asLong()).as(report.toString()).isPositive();
    assertThat(report.path("heap_limit_mib").asInt()).isEqualTo(512);
    // the exit code says whether the run found anomalies
    assertThat(exitCode).isEqualTo(report.path("anomalies").isEmpty() ? 0 : 1);
    assertThat(Files.exists(directory.resolve("overload.svg"))).isTrue();
  }
}
