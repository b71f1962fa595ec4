package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.DiscardingSink;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * A job keeping two checkpoints whose newest {@code _metadata} is damaged: resuming without {@code
 * -s} falls back to the older one and says so; {@code -s} at the damaged one fails with one line
 * naming it; with no valid checkpoint left the job fails instead of silently starting over.
 */
@Timeout(60)
class BrokenMetadataRestoreTest {
  private static final String JOB = "broken-metadata";

  /** Ways a {@code _metadata} file gets damaged. */
  enum Damage {
    TRUNCATED,
    BYTES_FLIPPED,
    DELETED
  }

  @TempDir Path checkpointRoot;
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger restoreLogger =
      (Logger) LoggerFactory.getLogger("io.weir.runtime.jobmaster.CheckpointStorages");

  @BeforeEach
  void captureLog() {
    log.start();
    restoreLogger.addAppender(log);
  }

  @AfterEach
  void releaseLog() {
    restoreLogger.detachAppender(log);
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void when_newestMetadataIsDamaged_then_resumeFallsBackToTheOlderCheckpoint(Damage damage)
      throws Exception {
    // given
    List<Path> checkpoints = runAndKeepTwoCheckpoints();
    damage(checkpoints.get(0), damage);

    // when
    runJob(null);

    // then: restored from the older one; new checkpoints do not reuse the damaged one's id
    long older = CheckpointLayout.checkpointIdOf(checkpoints.get(1)).orElseThrow();
    long damaged = CheckpointLayout.checkpointIdOf(checkpoints.get(0)).orElseThrow();
    assertThat(RestoreProbe.RESTORED_CHECKPOINT.get()).isEqualTo(older);
    assertThat(RestoreProbe.SNAPSHOTS)
        .isNotEmpty()
        .allSatisfy(id -> assertThat(id).isGreaterThan(damaged));
    assertThat(log.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("Skipping checkpoint " + checkpoints.get(0))
                    .contains("falling back"));
  }

  @Test
  void when_restorePathIsTheDamagedCheckpoint_then_jobFailsWithOneLineNamingIt() throws Exception {
    // given
    List<Path> checkpoints = runAndKeepTwoCheckpoints();
    damage(checkpoints.get(0), Damage.TRUNCATED);

    // when / then
    assertThatThrownBy(() -> runJob(checkpoints.get(0)))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining(checkpoints.get(0).toString())
        .hasMessageContaining(MetadataFormat.FILE_NAME)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void when_everyCheckpointIsDamaged_then_resumeFailsNamingThem() throws Exception {
    // given
    List<Path> checkpoints = runAndKeepTwoCheckpoints();
    damage(checkpoints.get(0), Damage.DELETED);
    damage(checkpoints.get(1), Damage.BYTES_FLIPPED);

    // when / then
    assertThatThrownBy(() -> runJob(null))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("No valid checkpoint")
        .hasMessageContaining(checkpoints.get(1).toString())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThatThrownBy(() -> runJob(checkpointRoot.resolve(JOB)))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("none of its 2 checkpoint directories is valid");
  }

  @Test
  void when_onlyCheckpointsWithoutMetadataExist_then_jobStartsFromScratch() throws Exception {
    // given: as after a crash before any checkpoint completed
    List<Path> checkpoints = runAndKeepTwoCheckpoints();
    damage(checkpoints.get(0), Damage.DELETED);
    damage(checkpoints.get(1), Damage.DELETED);

    // when
    runJob(null);

    // then
    assertThat(RestoreProbe.RESTORED_CHECKPOINT.get()).isZero();
  }

  /** Runs the job once; returns its two retained checkpoints, newest first. */
  private List<Path> runAndKeepTwoCheckpoints() throws Exception {
    runJob(null);
    List<Path> checkpoints =
        CheckpointLayout.checkpointDirectoriesNewestFirst(checkpointRoot.resolve(JOB));
    assertThat(checkpoints).hasSize(2);
    return checkpoints;
  }

  private void runJob(Path restorePath) throws Exception {
    RestoreProbe.reset();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(30));
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(2);
    if (restorePath != null) {
      env.fromCheckpoint(restorePath);
    }
    env.addSource(new SplitSequenceSource("source", 0, 2_000, 1, 8_000))
        .uid("source")
        .map(new RestoreProbe<>())
        .uid("probe")
        .addSink(new DiscardingSink<>())
        .uid("sink");
    env.execute(JOB);
  }

  private static void damage(Path checkpoint, Damage damage) throws IOException {
    Path metadata = checkpoint.resolve(MetadataFormat.FILE_NAME);
    byte[] bytes = Files.readAllBytes(metadata);
    switch (damage) {
      case TRUNCATED -> Files.write(metadata, java.util.Arrays.copyOf(bytes, bytes.length / 2));
      case BYTES_FLIPPED -> {
        for (int i = bytes.length / 3; i < bytes.length / 3 + 8; i++) {
          bytes[i] ^= 0x5a;
        }
        Files.write(metadata, bytes);
      }
      case DELETED -> Files.delete(metadata);
    }
  }
}
