package io.weir.runtime.checkpoint.storage;

import static io.weir.runtime.checkpoint.storage.Snapshots.expectedOperators;
import static io.weir.runtime.checkpoint.storage.Snapshots.readable;
import static io.weir.runtime.checkpoint.storage.Snapshots.storeAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointStorageTest {
  @TempDir Path root;

  @Test
  void when_checkpointCompleted_then_latestRestoresEveryOperatorsState() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "word-count", 1);
    CompletedCheckpoint completed = storage.complete(storeAll(storage, 7, false));

    RecordingListener listener = new RecordingListener();
    CompletedCheckpoint restored =
        new FileCheckpointStorage(root.resolve("word-count"), 1).latest(listener).orElseThrow();

    assertThat(listener.skipped).isEmpty();
    assertThat(restored.checkpointId()).isEqualTo(7);
    assertThat(restored.timestamp()).isEqualTo(1_007);
    assertThat(restored.jobName()).isEqualTo("word-count");
    assertThat(restored.savepoint()).isFalse();
    assertThat(restored.location()).isEqualTo(root.resolve("word-count").resolve("chk-7"));
    assertThat(restored.operators().get("map").operator()).isEqualTo(Snapshots.OPERATORS.get(1));
    assertThat(readable(restored.operators())).isEqualTo(expectedOperators(7));
    assertThat(readable(completed.operators())).isEqualTo(expectedOperators(7));
  }

  @Test
  void when_checkpointCompleted_then_itsStateIsReadBackFromTheFilesNotKeptInMemory()
      throws IOException {
    // given: a completed checkpoint whose state nobody has asked for yet
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 1);
    CompletedCheckpoint completed = storage.complete(storeAll(storage, 4, false));
    Path stateFile =
        storage
            .checkpointDirectory(4)
            .resolve(CheckpointLayout.stateFileName(Snapshots.SINK_TASK, 1));

    // when: one of its state files is gone
    Files.delete(stateFile);

    // then: its operators are known from the metadata, their state only from the files
    assertThat(completed.operators().keySet()).containsExactly("source", "map", "sink");
    assertThatThrownBy(() -> completed.operators().get("map"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("checkpoint 4")
        .hasMessageContaining("state file " + stateFile.getFileName() + " missing");
  }

  @Test
  void when_preparedWithExampleMetadata_then_nothingIsStoredAndCheckpointsCompleteAsBefore()
      throws Exception {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "prepared", 1);
    CheckpointMetadata example =
        new CheckpointMetadata(
            3,
            1_003,
            "prepared",
            false,
            Snapshots.OPERATORS,
            List.of(
                new CheckpointMetadata.SubtaskStateHandle(
                    Snapshots.SOURCE_TASK, 0, new StateHandle("none", 0, 0))),
            0);

    storage.prepareInBackground(example).get(30, TimeUnit.SECONDS);

    // The example is no checkpoint: nothing to restore, no directory written for it.
    assertThat(storage.latest(new RecordingListener())).isEmpty();
    assertThat(root.resolve("prepared").resolve("chk-3")).doesNotExist();
    assertThat(root.resolve("prepared").resolve("chk-0")).doesNotExist();
    storage.complete(storeAll(storage, 3, false));
    assertThat(storage.latest(new RecordingListener()).orElseThrow().checkpointId()).isEqualTo(3);
  }

  @Test
  void when_retainedTwo_then_olderCheckpointsDeletedOnlyOnceANewerCompletes() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 2);
    for (long id = 1; id <= 3; id++) {
      storage.complete(storeAll(storage, id, false));
    }
    assertThat(checkpointDirectories()).containsExactly("chk-2", "chk-3");

    CheckpointMetadata fourth = storeAll(storage, 4, false);
    assertThat(checkpointDirectories()).containsExactly("chk-2", "chk-3", "chk-4");

    storage.complete(fourth);
    assertThat(checkpointDirectories()).containsExactly("chk-3", "chk-4");
  }

  @Test
  void when_defaultRetention_then_onlyTheNewestCheckpointRemains() throws IOException {
    FileCheckpointStorage storage =
        FileCheckpointStorage.forJob(root, "job", FileCheckpointStorage.DEFAULT_RETAINED);
    storage.complete(storeAll(storage, 1, false));
    storeAll(storage, 2, false); // never completed: subsumed by 3
    storage.complete(storeAll(storage, 3, false));

    assertThat(checkpointDirectories()).containsExactly("chk-3");
  }

  @Test
  void when_savepointInJobDirectory_then_retentionNeverDeletesIt() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 1);
    storage.complete(storeAll(storage, 1, true));
    storage.complete(storeAll(storage, 2, false));
    storage.complete(storeAll(storage, 3, false));

    assertThat(checkpointDirectories()).containsExactly("chk-1", "chk-3");
  }

  @Test
  void when_checkpointDiscarded_then_itsDirectoryIsGoneAndDiscardingAgainIsFine()
      throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 1);
    storage.complete(storeAll(storage, 1, false));
    storeAll(storage, 2, false);

    storage.discard(2);
    storage.discard(2);
    storage.discard(99);

    assertThat(checkpointDirectories()).containsExactly("chk-1");
  }

  @Test
  void when_newestHasNoMetadata_then_itIsNeverReturnedAndTheOlderOneIs() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 2);
    storage.complete(storeAll(storage, 1, false));
    storeAll(storage, 2, false);
    // A crash during the metadata write leaves only the temporary file.
    Files.writeString(storage.checkpointDirectory(2).resolve("_metadata.inprogress"), "{\"form");

    RecordingListener listener = new RecordingListener();
    Optional<CompletedCheckpoint> latest = storage.latest(listener);

    assertThat(latest).map(CompletedCheckpoint::checkpointId).contains(1L);
    assertThat(listener.skipped).containsExactly("chk-2: _metadata missing");
  }

  @Test
  void when_metadataTruncated_then_fallbackToOlderCheckpointReported() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Path metadata = storage.checkpointDirectory(2).resolve("_metadata");
    byte[] bytes = Files.readAllBytes(metadata);
    Files.write(metadata, Arrays.copyOf(bytes, bytes.length / 2));

    assertLatestIsFirstSkipping(storage, "chk-2: _metadata truncated");
  }

  @Test
  void when_metadataEmpty_then_reportedTruncated() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Files.write(storage.checkpointDirectory(2).resolve("_metadata"), new byte[0]);

    assertLatestIsFirstSkipping(storage, "chk-2: _metadata truncated");
  }

  @Test
  void when_metadataValueByteFlipped_then_checksumMismatchReported() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Path metadata = storage.checkpointDirectory(2).resolve("_metadata");
    String text = Files.readString(metadata);
    assertThat(text).contains("\"word-count\"");
    Files.writeString(metadata, text.replace("\"word-count\"", "\"word-counu\""));

    assertLatestIsFirstSkipping(storage, "chk-2: checksum mismatch in _metadata");
  }

  @Test
  void when_metadataStructureByteFlipped_then_reportedCorrupt() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Path metadata = storage.checkpointDirectory(2).resolve("_metadata");
    byte[] bytes = Files.readAllBytes(metadata);
    bytes[0] = (byte) '[';
    Files.write(metadata, bytes);

    RecordingListener listener = new RecordingListener();
    assertThat(storage.latest(listener)).map(CompletedCheckpoint::checkpointId).contains(1L);
    assertThat(listener.skipped).singleElement().asString().startsWith("chk-2: _metadata corrupt");
  }

  @Test
  void when_stateFileByteFlipped_then_checksumMismatchNamesTheFile() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Path stateFile = stateFileOf(storage.checkpointDirectory(2));
    byte[] bytes = Files.readAllBytes(stateFile);
    bytes[bytes.length - 1] ^= 0x40;
    Files.write(stateFile, bytes);

    assertLatestIsFirstSkipping(storage, "chk-2: checksum mismatch in " + stateFile.getFileName());
  }

  @Test
  void when_stateFileMissing_then_fallbackReportsTheFile() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Path stateFile = stateFileOf(storage.checkpointDirectory(2));
    Files.delete(stateFile);

    assertLatestIsFirstSkipping(
        storage, "chk-2: state file " + stateFile.getFileName() + " missing");
  }

  @Test
  void when_stateFileTruncated_then_lengthMismatchReported() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Path stateFile = stateFileOf(storage.checkpointDirectory(2));
    byte[] bytes = Files.readAllBytes(stateFile);
    Files.write(stateFile, Arrays.copyOf(bytes, bytes.length - 3));

    RecordingListener listener = new RecordingListener();
    assertThat(storage.latest(listener)).map(CompletedCheckpoint::checkpointId).contains(1L);
    assertThat(listener.skipped)
        .singleElement()
        .asString()
        .startsWith("chk-2: length mismatch in " + stateFile.getFileName());
  }

  @Test
  void when_everyCheckpointBroken_then_latestIsEmptyAndEachIsReported() throws IOException {
    FileCheckpointStorage storage = twoCompletedCheckpoints();
    Files.delete(storage.checkpointDirectory(1).resolve("_metadata"));
    Files.delete(storage.checkpointDirectory(2).resolve("_metadata"));

    RecordingListener listener = new RecordingListener();

    assertThat(storage.latest(listener)).isEmpty();
    assertThat(listener.skipped)
        .containsExactly("chk-2: _metadata missing", "chk-1: _metadata missing");
  }

  @Test
  void when_jobDirectoryDoesNotExist_then_latestIsEmpty() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "never-ran", 1);

    assertThat(storage.latest(new RecordingListener())).isEmpty();
  }

  @Test
  void when_metadataWritten_then_itIsReadableJsonWithChecksum() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 1);
    storage.complete(storeAll(storage, 5, false));

    String metadata =
        Files.readString(
            storage.checkpointDirectory(5).resolve("_metadata"), StandardCharsets.UTF_8);

    assertThat(metadata)
        .contains("\"format\" : \"weir-checkpoint-metadata\"")
        .contains("\"checkpointId\" : 5")
        .containsPattern("\"checksum\" : \"crc32:[0-9a-f]{8}\"");
    assertThat(storage.checkpointDirectory(5).resolve("_metadata.inprogress")).doesNotExist();
  }

  private FileCheckpointStorage twoCompletedCheckpoints() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 2);
    storage.complete(storeAll(storage, 1, false));
    storage.complete(storeAll(storage, 2, false));
    return storage;
  }

  private static void assertLatestIsFirstSkipping(FileCheckpointStorage storage, String skipped)
      throws IOException {
    RecordingListener listener = new RecordingListener();
    CompletedCheckpoint latest = storage.latest(listener).orElseThrow();

    assertThat(latest.checkpointId()).isEqualTo(1);
    assertThat(readable(latest.operators())).isEqualTo(expectedOperators(1));
    assertThat(listener.skipped).containsExactly(skipped);
  }

  private static Path stateFileOf(Path checkpointDirectory) throws IOException {
    try (Stream<Path> files = Files.list(checkpointDirectory)) {
      return files
          .filter(file -> file.toString().endsWith(".state"))
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  private Stream<String> checkpointDirectoryStream() throws IOException {
    return Files.list(root.resolve("job")).map(path -> path.getFileName().toString()).sorted();
  }

  private java.util.List<String> checkpointDirectories() throws IOException {
    try (Stream<String> names = checkpointDirectoryStream()) {
      return names.toList();
    }
  }
}
