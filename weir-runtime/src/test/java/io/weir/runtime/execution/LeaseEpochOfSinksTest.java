package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local run hands the epoch of its lease on the checkpoint directory to its sinks: their recovery
 * records it, and a run whose lease is older than the one recorded is refused before it touches
 * anything.
 */
@Timeout(120)
class LeaseEpochOfSinksTest {
  private static final int RECORDS = 2_000;

  @TempDir Path dir;

  @Test
  void when_theJobRunsTwice_then_theSinkRecordsEachRunsLeaseEpoch() throws Exception {
    // when: the job runs, then runs again from its checkpoints
    environment().execute("epochs");
    String afterFirst = recordedLease();
    environment().execute("epochs");
    // then: each run's recovery recorded the lease it held, and each record is in the output once
    assertThat(afterFirst).contains("epoch=1");
    assertThat(recordedLease()).contains("epoch=2").contains(jobDirectory().toString());
    assertThat(committedLines()).hasSize(RECORDS).doesNotHaveDuplicates();
  }

  @Test
  void when_aRunsLeaseIsOlderThanTheSinksRecord_then_theRunFailsNamingBothEpochs()
      throws Exception {
    // given: two runs, after which the holder record went back to epoch 0 (a copy of the directory
    // taken before them, mounted where the lock does not hold)
    environment().execute("epochs");
    environment().execute("epochs");
    Path holder = jobDirectory().resolve(CheckpointDirectoryLease.HOLDER_FILE);
    Files.writeString(holder, Files.readString(holder).replaceAll("epoch=\\d+", "epoch=0"));
    List<String> before = committedLines();
    // when / then: the next run holds epoch 1 and is refused by the sink, which recorded epoch 2
    assertThatThrownBy(() -> environment().execute("epochs"))
        .hasMessageContaining(
            "' of job 'epochs' is fenced: this run holds lease epoch 1 of "
                + jobDirectory()
                + ", and a newer run (lease epoch 2 of "
                + jobDirectory()
                + ") has recovered the sink since; stop this run");
    assertThat(recordedLease()).contains("epoch=2");
    assertThat(committedLines()).isEqualTo(before);
  }

  @Test
  void when_anotherRunTookTheLeaseWhileThisOneRan_then_itsNextAttemptSettlesNothingAndFails()
      throws Exception {
    // given: a run holding epoch 1 that committed output
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.enableCheckpointing(Duration.ofMillis(100));
    env.setCheckpointDirectory(dir.resolve("checkpoints"));
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100)));
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, 200))
        .uid("numbers")
        .map(LeaseEpochOfSinksTest::failOnceAsked)
        .uid("failing")
        .addSink(FileSink.<Long>forDirectory(dir.resolve("output")).build())
        .uid("files");
    JobClient client = env.executeAsync("epochs");
    await().atMost(Duration.ofSeconds(60)).until(() -> !committedLines().isEmpty());
    // when: a second runner takes the lease where the lock does not hold (epoch 2), and the first
    // run's attempt fails
    Path holder = jobDirectory().resolve(CheckpointDirectoryLease.HOLDER_FILE);
    Files.writeString(holder, Files.readString(holder).replaceAll("epoch=\\d+", "epoch=2"));
    FAIL_NEXT_RECORD.set(true);
    // then: the next attempt's recovery step settles nothing and the job fails for good
    assertThatThrownBy(client::awaitResult)
        .hasMessageContaining(
            "job 'epochs' is fenced: this run holds lease epoch 1 of "
                + jobDirectory()
                + ", and a newer run (lease epoch 2 of "
                + jobDirectory()
                + ") took the lease since; its sinks are left to that run");
    assertThat(committedLines().size()).isLessThan(RECORDS);
  }

  private static final AtomicBoolean FAIL_NEXT_RECORD = new AtomicBoolean();

  private static Long failOnceAsked(Long record) {
    if (FAIL_NEXT_RECORD.compareAndSet(true, false)) {
      throw new IllegalStateException("failing the attempt at record " + record);
    }
    return record;
  }

  private StreamEnvironment environment() {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.enableCheckpointing(Duration.ofMillis(100));
    env.setCheckpointDirectory(dir.resolve("checkpoints"));
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, 10_000))
        .uid("numbers")
        .addSink(FileSink.<Long>forDirectory(dir.resolve("output")).build())
        .uid("files");
    return env;
  }

  private Path jobDirectory() {
    return dir.resolve("checkpoints").resolve("epochs").toAbsolutePath().normalize();
  }

  private String recordedLease() throws Exception {
    return Files.readString(dir.resolve("output").resolve(".staging").resolve(".lease-epoch"));
  }

  private List<String> committedLines() throws Exception {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("output"))) {
      for (Path file : files.filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
        lines.addAll(Files.readAllLines(file));
      }
    }
    return lines;
  }
}
