package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.sink.TransactionCommitException;
import io.weir.runtime.sink.twophase.SinkHarness;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSinkPathTest {
  @TempDir Path directory;

  @Test
  void when_outputIsAFile_then_buildFailsNamingIt() throws Exception {
    Path file = Files.writeString(directory.resolve("results.txt"), "not a directory");

    assertThatThrownBy(() -> FileSink.forDirectory(file).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Output directory " + file + " is a file, not a directory");
  }

  @Test
  void when_outputIsBelowAFile_then_startFailsNamingIt() throws Exception {
    Path file = Files.writeString(directory.resolve("results.txt"), "not a directory");
    Path output = file.resolve("out");
    SinkHarness<String, FileSink<String>> harness =
        new SinkHarness<>(() -> FileSink.<String>forDirectory(output).build(), 0);

    assertThatThrownBy(harness::start)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("Cannot create output directory " + output + ": ")
        .hasMessageContaining(file.toString())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void when_rollSizeNotPositive_then_builderRefusesIt() {
    assertThatThrownBy(() -> FileSink.forDirectory(directory).rollSizeBytes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Roll size must be positive: 0 bytes");
  }

  @Test
  void when_stagedFileDeletedBeforeCommit_then_commitFailsNamingFileAndCheckpoint()
      throws Exception {
    SinkHarness<String, FileSink<String>> harness =
        new SinkHarness<>(() -> FileSink.<String>forDirectory(directory).build(), 0);
    harness.start();
    harness.process("a");
    harness.snapshot(4);
    Path staged =
        OutputDirectory.stagedFile(directory.resolve(".staging"), ".part-0-0-0.inprogress");
    Files.delete(staged);

    assertThatThrownBy(() -> harness.notifyComplete(4))
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining("checkpoint 4")
        .hasMessageContaining(staged.toString())
        .hasMessageContaining("missing");
  }

  @Test
  void when_committedAgainAfterSuccess_then_noErrorAndContentUnchanged() throws Exception {
    FileTransaction transaction = new FileTransaction(directory, directory.resolve(".s"), 2, 7);
    Files.createDirectories(transaction.stagingDirectory());
    Files.writeString(transaction.stagedPart(transaction.nextPart()), "x\n");

    FileTransactions.commit(transaction);
    FileTransactions.commit(transaction);

    assertThat(Files.readString(directory.resolve("part-2-7-0"))).isEqualTo("x\n");
    assertThat(OutputDirectory.allFileNames(transaction.stagingDirectory())).isEmpty();
  }

  @Test
  void when_committedNameAlreadyTaken_then_commitRefusesToOverwrite() throws Exception {
    FileTransaction transaction = new FileTransaction(directory, directory.resolve(".s"), 0, 0);
    Files.createDirectories(transaction.stagingDirectory());
    Files.writeString(transaction.stagedPart(transaction.nextPart()), "new\n");
    Files.writeString(transaction.committedPart(0), "old\n");

    assertThatThrownBy(() -> FileTransactions.commit(transaction))
        .hasMessageContaining(transaction.committedPart(0).toString());
    assertThat(Files.readString(transaction.committedPart(0))).isEqualTo("old\n");
  }
}
