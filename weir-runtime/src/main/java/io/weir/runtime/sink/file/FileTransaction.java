package io.weir.runtime.sink.file;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * One transaction of a {@link FileSink}: the part files {@code part-<subtask>-<sequence>-<n>} that
 * it wrote into the staging directory, {@code n} from 0 to {@link #partCount()} - 1. It names its
 * directories itself, so a new process can commit or abort it from a checkpoint alone.
 */
@PublicEvolving
public final class FileTransaction implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String outputDirectory;
  private final String stagingDirectory;
  private final int subtaskIndex;
  private final long sequence;
  private int partCount;

  FileTransaction(Path outputDirectory, Path stagingDirectory, int subtaskIndex, long sequence) {
    this.outputDirectory = outputDirectory.toString();
    this.stagingDirectory = stagingDirectory.toString();
    this.subtaskIndex = subtaskIndex;
    this.sequence = sequence;
  }

  public Path outputDirectory() {
    return Path.of(outputDirectory);
  }

  public Path stagingDirectory() {
    return Path.of(stagingDirectory);
  }

  public int subtaskIndex() {
    return subtaskIndex;
  }

  /** Unique among the transactions of this subtask, across restarts. */
  public long sequence() {
    return sequence;
  }

  /** How many part files the transaction opened so far. */
  public int partCount() {
    return partCount;
  }

  /** Reserves the next part number. */
  int nextPart() {
    return partCount++;
  }

  Path stagedPart(int part) {
    return stagedPartIn(stagingDirectory(), part);
  }

  /** The staged part in {@code directory}, where the staging directory's files are now. */
  Path stagedPartIn(Path directory, int part) {
    return directory.resolve(PartFileNames.staged(subtaskIndex, sequence, part));
  }

  Path committedPart(int part) {
    return outputDirectory().resolve(PartFileNames.committed(subtaskIndex, sequence, part));
  }

  @Override
  public String toString() {
    return "file transaction " + subtaskIndex + "-" + sequence + " (" + partCount + " parts)";
  }
}
