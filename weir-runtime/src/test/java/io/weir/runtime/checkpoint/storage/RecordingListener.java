package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointStorage.RestoreListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Remembers the checkpoints a restore skipped, as "directory name: reason". */
final class RecordingListener implements RestoreListener {
  final List<String> skipped = new ArrayList<>();

  @Override
  public void skipped(String location, String reason) {
    skipped.add(Path.of(location).getFileName() + ": " + reason);
  }
}
