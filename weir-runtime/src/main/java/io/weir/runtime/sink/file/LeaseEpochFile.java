package io.weir.runtime.sink.file;

import io.weir.api.datastream.StaleLeaseEpochException;
import io.weir.api.functions.LeaseEpoch;
import io.weir.files.DurableFiles;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * The run's lease on the job's checkpoint directory as a fencing token in a {@link FileSink}'s
 * staging directory: {@value #FILE_NAME} names the lease of the run that recovered the sink last,
 * written durably (temporary file, fsync, atomic rename, fsync of the directory). The job's
 * recovery step records its lease there ({@link #recover}), refusing when a newer acquisition of
 * the same checkpoint directory did already; each commit, and each rename and delete of the
 * recovery, first checks that no other run recovered the sink since ({@link #check}).
 *
 * <p>A file system has no row lock: a check and the renames after it are not atomic, so a stale run
 * may still finish the one commit it checked before the newer run recovered. The attempt
 * directories close the rest: the newer run's recovery renames the stale run's staging directories
 * away ({@link AttemptDirectories}), so its later renames find no source. A run without a lease
 * fences nothing and touches no file.
 */
final class LeaseEpochFile {
  static final String FILE_NAME = ".lease-epoch";

  private final Path file;
  private final String jobName;
  private final String sinkName;
  private final LeaseEpoch own;

  LeaseEpochFile(Path stagingDirectory, String jobName, String sinkName, LeaseEpoch own) {
    this.file = stagingDirectory.resolve(FILE_NAME);
    this.jobName = jobName;
    this.sinkName = sinkName;
    this.own = own;
  }

  /** The file of a sink driven without a run (a harness): fences nothing. */
  static LeaseEpochFile none(Path stagingDirectory) {
    return new LeaseEpochFile(stagingDirectory, "", "", LeaseEpoch.NONE);
  }

  /**
   * The recovery step's side, before it renames or deletes anything: records this run's lease as
   * the sink's newest, unless a newer acquisition of the same checkpoint directory recorded its
   * own.
   *
   * @throws StaleLeaseEpochException naming the job, the sink and both leases
   */
  void recover() throws IOException {
    if (!own.isHeld()) {
      return;
    }
    Optional<LeaseEpoch> stored = read();
    if (stored.isPresent() && own.isOlderThan(stored.get())) {
      throw new StaleLeaseEpochException(jobName, sinkName, own, stored.get());
    }
    if (!stored.equals(Optional.of(own))) {
      write();
    }
  }

  /**
   * Before a commit or a recovery's rename or delete: refuses when another run recovered the sink
   * since this one did.
   *
   * @throws StaleLeaseEpochException naming the job, the sink and both leases
   */
  void check() throws IOException {
    if (!own.isHeld()) {
      return;
    }
    Optional<LeaseEpoch> stored = read();
    if (stored.isEmpty()) {
      write();
    } else if (own.isFencedBy(stored.get())) {
      throw new StaleLeaseEpochException(jobName, sinkName, own, stored.get());
    }
  }

  private Optional<LeaseEpoch> read() throws IOException {
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException never) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    properties.load(new StringReader(content));
    String directory = properties.getProperty("checkpointDirectory");
    String epoch = properties.getProperty("epoch");
    if (directory == null || epoch == null) {
      throw new IOException("Lease epoch file " + file + " is damaged: " + content.strip());
    }
    try {
      return Optional.of(new LeaseEpoch(directory, Long.parseLong(epoch.strip())));
    } catch (NumberFormatException e) {
      throw new IOException("Lease epoch file " + file + " is damaged: " + content.strip(), e);
    }
  }

  private void write() throws IOException {
    Properties properties = new Properties();
    properties.setProperty("checkpointDirectory", own.checkpointDirectory());
    properties.setProperty("epoch", Long.toString(own.epoch()));
    StringWriter text = new StringWriter();
    properties.store(text, null);
    DurableFiles.writeAtomically(file, text.toString().getBytes(StandardCharsets.UTF_8));
  }
}
