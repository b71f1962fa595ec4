package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.cli.CommandRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --nemesis --sink postgres}: the running count into PostgreSQL, the server on a
 * host of its own, under partitions of the job from the database, pauses and kills of the job, a
 * broker and the database; every input id is once in the committed rows and every count and total
 * matches the input. In network slot 4, which no other suite test uses, so that it may run beside
 * them. Runs as root, as the build's machines do.
 */
class NemesisPostgresLabTest {
  @TempDir Path directory;

  @Test
  void when_nemesisHitsTheRunningCountIntoPostgres_then_eachRowAndCountIsExact() throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path json = directory.resolve("nemesis-postgres.json");

    // when
    CommandRun run =
        CommandRun.weir(
            "lab",
            "--nemesis",
            "--job",
            "running-count",
            "--sink",
            "postgres",
            "--nemesis-network",
            "4",
            "--faults",
            "partition,pause,kill",
            "--minutes",
            "2",
            "--rate",
            "200",
            "--random-seed",
            "49",
            "--timeout",
            "180",
            "--dir",
            directory.resolve("lab").toString(),
            "--json",
            json.toString());

    // then
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(json.toFile());
    assertThat(report.get("sink").asText()).isEqualTo("postgres");
    assertThat(report.get("lost").asLong()).as(report.toString()).isZero();
    assertThat(report.get("duplicated").asLong()).as(report.toString()).isZero();
    assertThat(report.get("counts_off").asLong()).as(report.toString()).isZero();
    assertThat(report.get("totals_off").asLong()).as(report.toString()).isZero();
    assertThat(report.get("records").asLong()).isGreaterThan(5_000);
    assertThat(report.get("max_stall_s").asDouble())
        .isLessThanOrEqualTo(report.get("stall_bound_s").asDouble());
    List<String> targets = new ArrayList<>();
    report.get("faults").forEach(fault -> targets.add(fault.get("target").asText()));
    assertThat(targets)
        .contains("job -/-> postgres", "postgres (SIGSTOP)", "postgres (SIGKILL)")
        .anyMatch(target -> target.startsWith("job (SIG"));
    assertThat(run.out())
        .containsPattern(
            "nemesis: faults=\\d+ kinds=3 records=\\d+ lost=0 duplicated=0 aborted-reads=0"
                + " counts-off=0 totals-off=0 max-stall=[0-9.]+ s");
    assertThat(Files.readString(directory.resolve("nemesis-postgres.svg"), StandardCharsets.UTF_8))
        .contains("job -/-&gt; postgres");
    assertThat(CommandRun.weir("lab", "--nemesis-cleanup", "--nemesis-network", "4").out())
        .contains("nemesis: nothing to remove");
  }

  @Test
  void when_postgresIsAskedForTheSeedJob_then_oneLineSaysWhichJobWritesThere() {
    // when
    CommandRun run = CommandRun.weir("lab", "--nemesis", "--sink", "postgres");

    // then
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err().strip())
        .isEqualTo(
            "weir: --sink postgres: the nemesis lab writes PostgreSQL from the running count"
                + " only; add --job running-count");
  }
}
