package io.weir.runtime.execution;

import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderOutput;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SourceSplit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded pulled source whose end a test can place against a checkpoint: reader {@code s} of
 * {@code p} emits the ids {@code s * perReader .. (s + 1) * perReader - 1}, one a poll, and then
 * either ends at once or, when {@code endAfterSnapshot}, only once it has been snapshot (so a
 * stop-with-savepoint's barrier reaches it before its end). Its position is its one split, so a
 * restore goes on where the checkpoint was taken. Counts, across readers, the snapshots taken and
 * the ends reached; static because every reader works on its own deserialized copy.
 */
final class EndingSequenceSource implements ReaderSource<Long> {
  private static final long serialVersionUID = 1L;

  /** Snapshots taken by every reader, across attempts. */
  static final AtomicInteger SNAPSHOTS = new AtomicInteger();

  /** Readers that returned their end of input, across attempts. */
  static final AtomicInteger ENDS = new AtomicInteger();

  /** Readers that emitted all their ids and hold their end until a snapshot, across attempts. */
  static final AtomicInteger HOLDING = new AtomicInteger();

  private final long perReader;
  private final boolean endAfterSnapshot;

  EndingSequenceSource(long perReader, boolean endAfterSnapshot) {
    this.perReader = perReader;
    this.endAfterSnapshot = endAfterSnapshot;
  }

  static void reset() {
    SNAPSHOTS.set(0);
    ENDS.set(0);
    HOLDING.set(0);
  }

  @Override
  public SourceReader<Long, Position> createReader(SourceReaderContext context) {
    int reader = context.subtaskIndex();
    long next =
        context.restoredSplits().stream()
            .map(Position.class::cast)
            .filter(position -> position.reader() == reader)
            .mapToLong(Position::next)
            .findFirst()
            .orElse(0);
    return new Reader(reader, next);
  }

  /** How far one reader got: the index of its next id. */
  record Position(int reader, long next) implements SourceSplit {
    @Override
    public String split() {
      return "reader-" + reader;
    }

    @Override
    public long position() {
      return next;
    }
  }

  private final class Reader implements SourceReader<Long, Position> {
    private final int reader;
    // Completes once this reader was snapshot: only a held end waits for it.
    private final CompletableFuture<Void> snapshotTaken = new CompletableFuture<>();
    private long next;
    private boolean holding;

    Reader(int reader, long next) {
      this.reader = reader;
      this.next = next;
    }

    @Override
    public InputStatus pollNext(ReaderOutput<Long> output) {
      if (next < perReader) {
        output.collect(reader * perReader + next);
        next++;
        return InputStatus.MORE_AVAILABLE;
      }
      if (endAfterSnapshot && !snapshotTaken.isDone()) {
        if (!holding) {
          holding = true;
          HOLDING.incrementAndGet();
        }
        return InputStatus.NOTHING_AVAILABLE;
      }
      ENDS.incrementAndGet();
      return InputStatus.END_OF_INPUT;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
      return next < perReader || !endAfterSnapshot
          ? CompletableFuture.completedFuture(null)
          : snapshotTaken;
    }

    @Override
    public List<Position> snapshotState(long checkpointId) {
      SNAPSHOTS.incrementAndGet();
      snapshotTaken.complete(null);
      return List.of(new Position(reader, next));
    }

    @Override
    public void close() {}
  }
}
