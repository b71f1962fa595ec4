package io.weir.runtime.sink.file;

import io.weir.api.annotation.PublicEvolving;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One transaction of a {@link FileSink}: the part files {@code part-<subtask>-<sequence>-<n>} that
 * it wrote into the staging directory, {@code n} from 0 to {@link #partCount()} - 1, and the bucket
 * each part is committed into. It names its directories itself, so a new process can commit or
 * abort it, every bucket's parts together, from a checkpoint alone.
 */
@PublicEvolving
public final class FileTransaction implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String outputDirectory;
  private final String stagingDirectory;
  private final int subtaskIndex;
  private final long sequence;
  private int partCount;
  // Not final: a transaction checkpointed before sinks had buckets has none (see readObject).
  private ArrayList<String> bucketOfPart = new ArrayList<>();

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

  /** Reserves the next part number, for a part committed into {@code bucket}. */
  int nextPart(String bucket) {
    bucketOfPart.add(bucket);
    return partCount++;
  }

  /** Reserves the next part number, for a part committed into the output directory itself. */
  int nextPart() {
    return nextPart("");
  }

  Path stagedPart(int part) {
    return stagedPartIn(stagingDirectory(), part);
  }

  /** The staged part in {@code directory}, where the staging directory's files are now. */
  Path stagedPartIn(Path directory, int part) {
    return directory.resolve(PartFileNames.staged(subtaskIndex, sequence, part));
  }

  Path committedPart(int part) {
    return bucketDirectory(part).resolve(PartFileNames.committed(subtaskIndex, sequence, part));
  }

  /** The directories the parts are committed into, each once. */
  Set<Path> bucketDirectories() {
    Set<Path> directories = new LinkedHashSet<>();
    for (int part = 0; part < partCount; part++) {
      directories.add(bucketDirectory(part));
    }
    return directories;
  }

  private Path bucketDirectory(int part) {
    return outputDirectory().resolve(bucketOfPart.get(part));
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    if (bucketOfPart == null) {
      bucketOfPart = new ArrayList<>(Collections.nCopies(partCount, ""));
    }
  }

  @Override
  public String toString() {
    return "file transaction " + subtaskIndex + "-" + sequence + " (" + partCount + " parts)";
  }
}
