package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
