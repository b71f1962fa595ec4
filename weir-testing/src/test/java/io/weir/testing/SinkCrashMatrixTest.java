package io.weir.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.sink.SinkFunction;
import io.weir.runtime.sink.file.FileSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkCrashMatrixTest {
  private static final List<String> RECORDS =
      IntStream.range(0, 12).mapToObj(index -> "record-" + index).toList();

  @TempDir Path cells;

  /** An empty output directory per cell, and the lines a reader of it sees. */
  private final class FileSinkFixture implements SinkFixture<String> {
    private final Path output;

    FileSinkFixture() {
      try {
        output = Files.createTempDirectory(cells, "cell");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public SinkFunction<String> newSink() {
      return FileSink.<String>forDirectory(output).build();
    }

    @Override
    public List<String> committed() throws IOException {
      List<String> lines = new ArrayList<>();
      try (Stream<Path> files = Files.list(output)) {
        for (Path file : files.filter(f -> !f.getFileName().toString().startsWith(".")).toList()) {
          lines.addAll(Files.readAllLines(file));
        }
      }
      return lines;
    }
  }

  /**
   * A file sink that puts each record into one of three bucket directories; a record a reader finds
   * in another bucket than its own counts as a different record, so the matrix reports it lost.
   */
  private final class BucketedFileSinkFixture implements SinkFixture<String> {
    private final Path output;

    BucketedFileSinkFixture() {
      try {
        output = Files.createTempDirectory(cells, "cell");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    static String bucketOf(String record) {
      return "b=" + Math.floorMod(record.hashCode(), 3);
    }

    @Override
    public SinkFunction<String> newSink() {
      return FileSink.<String>forDirectory(output)
          .bucketAssigner(BucketedFileSinkFixture::bucketOf)
          .build();
    }

    @Override
    public List<String> committed() throws IOException {
      List<String> lines = new ArrayList<>();
      try (Stream<Path> files = Files.walk(output)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          Path relative = output.relativize(file);
          if (relative.getNameCount() == 2 && !relative.toString().startsWith(".")) {
            String bucket = relative.getName(0).toString();
            for (String line : Files.readAllLines(file)) {
              lines.add(bucketOf(line).equals(bucket) ? line : line + " in " + bucket);
            }
          }
        }
      }
      return lines;
    }
  }

  private record MemoryFixture(MemoryStore store, boolean commitOnRestore)
      implements SinkFixture<String> {
    @Override
    public SinkFunction<String> newSink() {
      return new MemorySink(store, commitOnRestore);
    }

    @Override
    public List<String> committed() {
      return store.committed();
    }
  }

  @Test
  void when_fileSinkCrashesAtEveryStep_then_everyRecordIsCommittedOnce() throws Exception {
    // when
    SinkCrashReport report =
        SinkCrashMatrix.forSink(FileSinkFixture::new).records(RECORDS).rounds(3).run();
    // then
    report.assertExactlyOnce();
    assertThat(report.outcomes()).hasSize(SinkCrashPoint.values().length * 3 - 2);
  }

  @Test
  void when_bucketedFileSinkCrashesAtEveryStep_then_everyRecordIsCommittedOnceInItsBucket()
      throws Exception {
    // when
    SinkCrashReport report =
        SinkCrashMatrix.forSink(BucketedFileSinkFixture::new).records(RECORDS).rounds(3).run();
    // then
    report.assertExactlyOnce();
    assertThat(report.outcomes()).hasSize(SinkCrashPoint.values().length * 3 - 2);
  }

  @Test
  void when_sinkForgetsPendingTransactionsOnRestore_then_matrixReportsTheLoss() throws Exception {
    // when
    SinkCrashReport report =
        SinkCrashMatrix.forSink(() -> new MemoryFixture(new MemoryStore(true), false))
            .records(RECORDS)
            .run();
    // then
    assertThat(report.failures())
        .extracting(SinkCrashOutcome::point)
        .contains(
            SinkCrashPoint.BEFORE_COMMIT,
            SinkCrashPoint.AFTER_LOST_NOTIFICATION,
            SinkCrashPoint.BETWEEN_COMMITS)
        .doesNotContain(SinkCrashPoint.WHILE_WRITING, SinkCrashPoint.AFTER_PRE_COMMIT);
    assertThat(report.failures()).allMatch(outcome -> outcome.lost() > 0);
    assertThatThrownBy(report::assertExactlyOnce)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("BEFORE_COMMIT in round 0: lost=4 duplicated=0");
  }

  @Test
  void when_commitIsNotIdempotent_then_matrixReportsDuplicatesAfterCommit() throws Exception {
    // when
    SinkCrashReport report =
        SinkCrashMatrix.forSink(() -> new MemoryFixture(new MemoryStore(false), true))
            .records(RECORDS)
            .run();
    // then: every restore from a checkpoint whose transaction was committed commits it again
    assertThat(report.failures())
        .extracting(SinkCrashOutcome::point)
        .contains(SinkCrashPoint.AFTER_COMMIT, SinkCrashPoint.DURING_RECOVERY);
    assertThat(report.failures())
        .allMatch(outcome -> outcome.duplicated() > 0 && outcome.lost() == 0);
    assertThat(report.outcomes())
        .filteredOn(outcome -> outcome.round() == 0)
        .filteredOn(outcome -> outcome.point() == SinkCrashPoint.WHILE_WRITING)
        .allMatch(SinkCrashOutcome::isExactlyOnce);
  }
}
