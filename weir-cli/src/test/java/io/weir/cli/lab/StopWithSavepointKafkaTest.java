package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.examples.SeedJob;
import io.weir.examples.SeedJobOptions;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed job in this process on a real broker, stopped with a savepoint while input arrives: when
 * the job has ended, a {@code read_committed} reader already sees every record up to the savepoint
 * and nothing is pending (the output, the uncommitted output and the group's offsets agree); a
 * plain resubmission (without {@code -s}) then resumes from the savepoint, not from the older
 * checkpoint, and every id is committed exactly once.
 */
@Timeout(180)
class StopWithSavepointKafkaTest {
  // Input records/s while the job runs; it is stopped once a second of them is committed.
  private static final long RATE = 2_000;

  // A broker's start takes seconds on 2 cores, and far longer while other builds share them.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_stoppedWithSavepointWhileInputArrives_then_nothingIsPendingAndAResubmitResumesFromIt()
      throws Exception {
    // given: the seed job with parallelism 2, input arriving at 2,000 records/s
    Topics.create(kafka.bootstrapServers(), 4, "foo-stop", "bar-stop");
    OutputVerifier output = new OutputVerifier(kafka.bootstrapServers(), "bar-stop");
    JobClient job = seedJob().executeAsync("seed");
    ContinuousFeed input = ContinuousFeed.start(kafka.bootstrapServers(), "foo-stop", RATE, 0);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> output.read(true).records() > RATE);

    // when: it stops with a savepoint
    Path savepoint =
        job.stopWithSavepoint(directory.resolve("savepoint")).get(60, TimeUnit.SECONDS);
    job.awaitResult();

    // then: at the moment it ended, everything up to the savepoint is committed, nothing else
    OutputVerifier.Reading committed = output.read(true);
    long groupOffsets = Topics.committedOffsets(kafka.bootstrapServers(), "group-stop");
    assertThat(committed.records()).isEqualTo(groupOffsets).isPositive();
    try (LingeringTransactions transactions =
        new LingeringTransactions(
            Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(transactions.list("seed-stop")).isEmpty();
    }
    assertThat(committed.counts().values()).containsOnly(1);
    long savepointId = CheckpointLoader.load(savepoint).checkpointId();
    assertThat(checkpointIds()).allMatch(id -> id < savepointId).isNotEmpty();

    // when: the rest of the input arrived and the job is submitted again without -s
    long fed = input.stop();
    StreamEnvironment resubmitted = StreamEnvironment.getExecutionEnvironment();
    SeedJob.build(resubmitted, SeedJobOptions.parse(arguments("--bounded")));
    resubmitted.execute("seed");

    // then: it resumed from the savepoint, so every id is committed exactly once
    OutputVerifier.Verdict verdict = output.read(true).verify(0, fed);
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
    assertThat(verdict.out()).isEqualTo(fed);
    assertThat(Topics.committedOffsets(kafka.bootstrapServers(), "group-stop")).isEqualTo(fed);
  }

  private StreamEnvironment seedJob() {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    SeedJob.build(env, SeedJobOptions.parse(arguments()));
    return env;
  }

  private String[] arguments(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                "foo-stop",
                "--output-topic",
                "bar-stop",
                "--group",
                "group-stop",
                "--transactional-id-prefix",
                "seed-stop",
                "--checkpoint-interval",
                "300",
                "--parallelism",
                "2",
                "--checkpoint-dir",
                directory.resolve("checkpoints").toString()));
    args.addAll(List.of(extra));
    return args.toArray(String[]::new);
  }

  private List<Long> checkpointIds() throws Exception {
    return CheckpointLayout.checkpointDirectoriesNewestFirst(directory.resolve("checkpoints/seed"))
        .stream()
        .map(chk -> CheckpointLayout.checkpointIdOf(chk).getAsLong())
        .toList();
  }
}
