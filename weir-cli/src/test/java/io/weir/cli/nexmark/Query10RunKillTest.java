package io.weir.cli.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.process.JobProcess;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.job.NexmarkJob;
import io.weir.nexmark.kafka.EventTopicWriter;
import io.weir.nexmark.kafka.EventTopics;
import io.weir.nexmark.oracle.CheckResult;
import io.weir.nexmark.oracle.QueryCheck;
import io.weir.nexmark.queries.Query10;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * q10 as users run it: {@code weir run NexmarkJob --results-dir} in a process of its own, reading a
 * generated topic, killed with SIGKILL once a checkpoint committed part files, and run again from
 * its checkpoint: the committed files hold DuckDB's rows, each once and in the directory of its
 * {@code dt} and {@code hm}.
 */
@Timeout(180)
class Query10RunKillTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private static final long EVENTS = 40_000;
  private static final int RATE = 20;
  // 20 events a second of event time from 90 s before midnight: 2,000 s, the minutes from 23:58
  // to 00:31 of the next day
  private static final GeneratorConfig ACROSS_MIDNIGHT =
      new GeneratorConfig(0, RATE, Instant.parse("2026-01-01T23:58:30Z"), 100);
  private static final int MINUTES = 34;

  @TempDir Path directory;

  @Test
  void when_q10IsKilledAfterACommitAndRunAgain_then_eachPartitionDirectoryHoldsItsRowsOnce()
      throws Exception {
    // given: the events in a topic, as 'weir nexmark generate' writes them
    new EventTopics(kafka.bootstrapServers()).createIfMissing("events", 3);
    new EventTopicWriter(kafka.bootstrapServers(), "events")
        .write(new EventGenerator(ACROSS_MIDNIGHT), EVENTS, written -> {});
    Path results = directory.resolve("results");

    // when: killed once a checkpoint committed part files, then run again from its checkpoint
    int committedAtKill;
    long stagedAtKill;
    try (JobProcess first = start(results, "first")) {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(50))
          .ignoreExceptionsInstanceOf(UncheckedIOException.class)
          .until(() -> !first.isAlive() || committedRows(results) > 0);
      assertThat(first.isAlive()).as("killed mid-run: %s", Files.readString(first.log())).isTrue();
      first.kill();
      assertThat(first.waitFor(10_000)).isEqualTo(137);
      committedAtKill = committedRows(results);
      stagedAtKill = stagedPartFiles(results);
    }
    String secondLog;
    try (JobProcess second = start(results, "second")) {
      assertThat(second.waitFor(Duration.ofSeconds(90).toMillis()))
          .as("the second run's exit: %s", Files.readString(second.log()))
          .isZero();
      secondLog = Files.readString(second.log());
    }

    // then: the rows, their directories and the rows per directory are DuckDB's
    Map<String, List<String>> committed = QueryCheck.committedLinesByDirectory(results);
    CheckResult result = QueryCheck.compareFiles(new Query10(), ACROSS_MIDNIGHT, EVENTS, committed);
    assertThat(result.line())
        .isEqualTo("q10: rows=" + result.rows() + " partitions=" + MINUTES + " matches-sql=true");
    assertThat(secondLog).contains("from its latest completed checkpoint");
    // the kill came mid-run, and left the attempt's uncommitted part files staged
    assertThat(committedAtKill).isPositive().isLessThan((int) result.rows());
    assertThat(stagedAtKill).isPositive();
    System.out.printf(
        "q10 under weir run: killed with %d rows committed and %d part files staged; %s%n",
        committedAtKill, stagedAtKill, result.line());
  }

  private JobProcess start(Path results, String run) throws IOException {
    return JobProcess.start(
        List.of(
            "--parallelism",
            "2",
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString(),
            NexmarkJob.class.getName(),
            "--query",
            "q10",
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--events-topic",
            "events",
            "--results-dir",
            results.toString(),
            "--rate",
            String.valueOf(RATE),
            "--checkpoint-interval-ms",
            "200"),
        null,
        directory.resolve(run + ".log"));
  }

  private static int committedRows(Path results) {
    if (!Files.isDirectory(results)) {
      return 0;
    }
    return QueryCheck.committedLinesByDirectory(results).values().stream()
        .mapToInt(List::size)
        .sum();
  }

  /** Part files below the sink's hidden staging directory: written, not committed. */
  private static long stagedPartFiles(Path results) throws IOException {
    try (Stream<Path> files = Files.walk(results.resolve(".staging"))) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> file.getFileName().toString().contains("part-"))
          .count();
    }
  }
}
