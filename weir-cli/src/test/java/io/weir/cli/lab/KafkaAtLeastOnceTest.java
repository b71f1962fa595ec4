package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.JobProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seed job with {@code --semantic at-least-once}, halted at a failpoint and restored: nothing
 * is lost; duplicates are counted, not forbidden.
 */
class KafkaAtLeastOnceTest {
  static final long RECORDS = 2000;

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  @ParameterizedTest
  @ValueSource(
      strings = {"task.snapshot.after", "coordinator.notify.before", "source.offsets-commit.after"})
  void when_haltedAndRestored_then_noRecordIsLost(String failpoint) throws Exception {
    // given
    SeedJobScenario scenario =
        new SeedJobScenario(
            kafka.bootstrapServers(), directory, "--semantic", "at-least-once", "--chained");
    CompletableFuture<Void> feeding;

    // when
    try (JobProcess first = scenario.start(failpoint + "=halt@6")) {
      scenario.awaitFirstCheckpoint(first);
      feeding = scenario.feed(0, RECORDS, 400);
      SeedJobScenario.awaitExit(first, Duration.ofSeconds(60));
      assertThat(SeedJobScenario.log(first)).contains("failpoint " + failpoint + " hit");
    }
    try (JobProcess second = scenario.start(null)) {
      feeding.join();

      // then
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .until(() -> scenario.readCommitted().verify(0, RECORDS).lost() == 0);
      OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, RECORDS);
      System.out.printf("at-least-once %s: %s%n", failpoint, verdict.line());
      assertThat(verdict.lost()).isZero();
      assertThat(second.isAlive()).isTrue();
    }
  }
}
