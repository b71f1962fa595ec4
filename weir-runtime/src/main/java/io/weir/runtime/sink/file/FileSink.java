package io.weir.runtime.sink.file;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.StateSerializer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;

/**
 * Writes records into part files of a directory, exactly once: a reader of the output directory
 * sees a record once its checkpoint completed, never twice, and never a record of a failed attempt.
 *
 * <p>Each transaction writes part files {@code part-<subtask>-<sequence>-<n>} into the subtask
 * attempt's own directory in the staging directory, under hidden in-progress names, starting a new
 * part once one reaches the roll size. {@code preCommit} flushes and fsyncs them; {@code commit}
 * renames them atomically into the output directory and fsyncs it; {@code abort} deletes them. The
 * transaction sequence is unique per subtask across restarts: it continues after the highest one
 * found in the checkpoint and in both directories, so no name is ever written twice.
 *
 * <p>With a {@link BucketAssigner} each record goes into a bucket, a directory below the output
 * directory such as {@code dt=2026-12-07/hm=10:15}: the transaction writes one part per bucket it
 * touches (numbered {@code n} across the transaction, so names stay unique), stages them all in the
 * same attempt directory, and commits, aborts and recovers them together. Without one, every record
 * goes into the output directory itself.
 *
 * <p>Fenced by attempt ({@link AttemptDirectories}): the job's recovery step renames the staging
 * directories of every earlier attempt before the new one starts, so a zombie task of an earlier
 * attempt can neither commit nor delete anything.
 *
 * <p>Fenced by the run's lease on the job's checkpoint directory ({@link LeaseEpochFile}): the
 * recovery step records the lease in the staging directory, and every commit and every rename or
 * delete of a recovery first checks that no newer run of the job recovered the sink since.
 *
 * <pre>{@code
 * FileSink<String> sink = FileSink.<String>forDirectory(Path.of("out")).rollSizeBytes(1 << 20).build();
 * FileSink<Click> byDay = FileSink.<Click>forDirectory(Path.of("clicks"))
 *     .bucketAssigner(click -> "dt=" + click.day())
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class FileSink<T> extends TwoPhaseCommitSinkFunction<T, FileTransaction, Void> {
  private static final long serialVersionUID = 1L;

  private final String outputDirectory;
  private final String stagingDirectory;
  private final RecordEncoder<? super T> encoder;
  private final BucketAssigner<? super T> bucketAssigner;
  private final long rollSizeBytes;

  private transient int subtaskIndex;
  private transient long nextSequence;
  private transient OpenParts openParts;
  private transient Path attemptDirectory;
  private transient LeaseEpochFile leaseEpochFile;

  private FileSink(Builder<T> builder) {
    super(StateSerializer.java(), StateSerializer.java(), builder.options);
    this.outputDirectory = builder.outputDirectory.toString();
    this.stagingDirectory = builder.stagingDirectory.toString();
    this.encoder = builder.encoder;
    this.bucketAssigner = builder.bucketAssigner;
    this.rollSizeBytes = builder.rollSizeBytes;
  }

  /** Starts building a sink that writes into {@code outputDirectory}. */
  public static <T> Builder<T> forDirectory(Path outputDirectory) {
    return new Builder<>(outputDirectory);
  }

  public Path outputDirectory() {
    return Path.of(outputDirectory);
  }

  public Path stagingDirectory() {
    return Path.of(stagingDirectory);
  }

  /** Creates and checks the directories, then begins or recovers transactions. */
  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    subtaskIndex = getRuntimeContext().subtaskIndex();
    SinkDirectories.prepare(outputDirectory(), "output");
    SinkDirectories.prepare(stagingDirectory(), "staging");
    SinkDirectories.checkSameFileStore(stagingDirectory(), outputDirectory());
    // The staging directories are listed before the output directory: a file renamed between the
    // two listings is then seen in one of them.
    long highestStaged =
        SinkDirectories.highestSequence(
            subtaskIndex, AttemptDirectories.stagingDirectories(stagingDirectory()));
    long highestCommitted =
        SinkDirectories.highestCommittedSequence(subtaskIndex, outputDirectory());
    nextSequence = Math.max(highestStaged, highestCommitted) + 1;
    openParts = new OpenParts(rollSizeBytes);
    attemptDirectory = AttemptDirectories.create(stagingDirectory(), subtaskIndex);
    super.initializeState(context);
  }

  @Override
  protected FileTransaction beginTransaction() {
    return new FileTransaction(outputDirectory(), attemptDirectory, subtaskIndex, nextSequence++);
  }

  @Override
  protected void invoke(FileTransaction transaction, T value, Context context) throws Exception {
    openParts.write(transaction, bucketAssigner.bucketOf(value), value, encoder);
  }

  @Override
  protected void preCommit(FileTransaction transaction) throws Exception {
    openParts.syncAndCloseAll();
    if (transaction.partCount() > 0) {
      SinkDirectories.sync(transaction.stagingDirectory());
    }
  }

  @Override
  protected void commit(FileTransaction transaction) throws Exception {
    leaseEpochFile().check();
    FileTransactions.commit(transaction);
  }

  /** The recovery's delete of the restored open transaction's staged files. */
  @Override
  protected void recoverAndAbort(FileTransaction transaction) throws Exception {
    leaseEpochFile().check();
    abort(transaction);
  }

  @Override
  protected void abort(FileTransaction transaction) throws Exception {
    // The recovery step aborts on a sink that never started, which has no open parts.
    if (openParts != null && transaction == currentTransaction()) {
      openParts.closeQuietly();
    }
    FileTransactions.abort(transaction);
  }

  /** Shuts out the tasks of every earlier attempt: see {@link AttemptDirectories}. */
  @Override
  protected void fenceEarlierAttempts() throws IOException {
    SinkDirectories.prepare(stagingDirectory(), "staging");
    leaseEpochFile().recover();
    AttemptDirectories.fenceAll(stagingDirectory());
  }

  /**
   * After the recovery step committed the restored pending transactions from the fenced
   * directories: deletes those directories, with the aborted open transactions in them.
   */
  @Override
  protected List<TransactionOutcome> proveOutcomes(
      SortedMap<Long, List<FileTransaction>> pending, List<FileTransaction> open) throws Exception {
    List<TransactionOutcome> outcomes = super.proveOutcomes(pending, open);
    leaseEpochFile().check();
    AttemptDirectories.deleteFenced(stagingDirectory());
    return outcomes;
  }

  /** Continues the sequence after every restored transaction, whichever directory it names. */
  @Override
  protected void finishRecoveringContext(Collection<FileTransaction> handledTransactions) {
    for (FileTransaction transaction : handledTransactions) {
      nextSequence = Math.max(nextSequence, transaction.sequence() + 1);
    }
  }

  /**
   * The lease of the run, from the runtime context of the subtask or of the job's recovery step; a
   * sink driven without one (a harness) fences nothing.
   */
  private LeaseEpochFile leaseEpochFile() {
    if (leaseEpochFile == null) {
      leaseEpochFile =
          hasRuntimeContext()
              ? new LeaseEpochFile(
                  stagingDirectory(),
                  getRuntimeContext().jobName(),
                  getRuntimeContext().operatorName(),
                  getRuntimeContext().leaseEpoch())
              : LeaseEpochFile.none(stagingDirectory());
    }
    return leaseEpochFile;
  }

  /** Builds a {@link FileSink}; {@link #build()} checks the settings. */
  public static final class Builder<T> {
    private static final long DEFAULT_ROLL_SIZE_BYTES = 128L * 1024 * 1024;

    private final Path outputDirectory;
    private Path stagingDirectory;
    private RecordEncoder<? super T> encoder = RecordEncoder.toStringLines();
    private BucketAssigner<? super T> bucketAssigner = record -> "";
    private long rollSizeBytes = DEFAULT_ROLL_SIZE_BYTES;
    private TwoPhaseCommitOptions options = TwoPhaseCommitOptions.defaults();

    private Builder(Path outputDirectory) {
      this.outputDirectory =
          Objects.requireNonNull(outputDirectory, "outputDirectory").toAbsolutePath().normalize();
      this.stagingDirectory = this.outputDirectory.resolve(".staging");
    }

    /** Where in-progress part files are written; by default {@code .staging} in the output. */
    public Builder<T> stagingDirectory(Path directory) {
      this.stagingDirectory = Objects.requireNonNull(directory).toAbsolutePath().normalize();
      return this;
    }

    /** How a record becomes bytes; by default its {@code toString()} and a line feed. */
    public Builder<T> encoder(RecordEncoder<? super T> encoder) {
      this.encoder = Objects.requireNonNull(encoder, "encoder");
      return this;
    }

    /**
     * Which directory below the output directory each record goes into; by default the output
     * directory itself. See {@link BucketAssigner} for what a bucket path may be.
     */
    public Builder<T> bucketAssigner(BucketAssigner<? super T> assigner) {
      this.bucketAssigner = Objects.requireNonNull(assigner, "bucketAssigner");
      return this;
    }

    /** A part file is closed, and the next record starts a new one, once it has this many bytes. */
    public Builder<T> rollSizeBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("Roll size must be positive: " + bytes + " bytes");
      }
      this.rollSizeBytes = bytes;
      return this;
    }

    /** Commit retries, clock and transaction timeout; see {@link TwoPhaseCommitOptions}. */
    public Builder<T> options(TwoPhaseCommitOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    public FileSink<T> build() {
      SinkDirectories.checkNotAFile(outputDirectory, "output");
      SinkDirectories.checkNotAFile(stagingDirectory, "staging");
      return new FileSink<>(this);
    }
  }
}
