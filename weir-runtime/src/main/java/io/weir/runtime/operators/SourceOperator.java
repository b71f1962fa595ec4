package io.weir.runtime.operators;

import io.weir.api.functions.Function;
import io.weir.api.source.DeadLetterCounting;
import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourceFunction;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SourceSplit;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Holds a source: the {@link SourceReader} of a {@link ReaderSource}, or a pushing {@link
 * SourceFunction} behind a {@link SourceFunctionReader}. Its task polls it on the task's thread;
 * records it emits go straight down the chain. A reader's splits are kept in a union list state, so
 * that every reader of a restored job sees all of them and keeps its own.
 */
public final class SourceOperator extends AbstractStreamOperator<Function> {
  static final String SPLIT_STATE = "source-splits";

  /** Work the task does while a pushing source is paused (mail: barriers, notifications). */
  @FunctionalInterface
  public interface PausedAction {
    void run() throws Exception;
  }

  /** What happens, before the mail runs, to what a pushing function emitted since the last poll. */
  public enum Emitted {
    /** Sent down the chain first, so a barrier in the mail follows it (the source is read). */
    SENT_FIRST,
    /**
     * Kept back: the source stopped at a stop-with-savepoint's barrier, and nothing the function
     * emitted after it may go out unless that savepoint is aborted.
     */
    KEPT_BACK
  }

  private final SourceReaderOutput readerOutput;
  private final SplitDiscovery splitDiscovery;
  private ListState<SourceSplit> splitState;
  private SourceReader<Object, ? extends SourceSplit> reader;
  private SourceFunctionReader pushing;

  public SourceOperator(OperatorSetup setup, Function function, Output output) {
    this(setup, function, output, SplitDiscovery.BY_READERS);
  }

  /**
   * @param splitDiscovery whether the reader finds its own splits or gets them from the source's
   *     enumerator ({@link #addSplits})
   */
  public SourceOperator(
      OperatorSetup setup, Function function, Output output, SplitDiscovery splitDiscovery) {
    super(setup, function, output);
    this.readerOutput = new SourceReaderOutput(this.output);
    this.splitDiscovery = splitDiscovery;
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    if (function instanceof ReaderSource) {
      splitState = operatorStateStore().getUnionListState(new ListStateDescriptor<>(SPLIT_STATE));
    }
  }

  /** Opens the function, then creates its reader (a pushing function's thread starts here). */
  @Override
  @SuppressWarnings("unchecked")
  public void open() throws Exception {
    super.open();
    if (function instanceof ReaderSource<?> source) {
      reader = (SourceReader<Object, ? extends SourceSplit>) source.createReader(new Context());
    } else {
      pushing =
          new SourceFunctionReader(
              (SourceFunction<Object>) function, setup.describe() + " source function");
      reader = pushing;
      pushing.start();
    }
  }

  /** One poll of the reader; on the task thread. */
  public InputStatus pollNext() throws Exception {
    return reader.pollNext(readerOutput);
  }

  /** Splits the source's enumerator assigned to this reader; on the task thread, between polls. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public void addSplits(List<SourceSplit> splits) throws Exception {
    if (splitDiscovery != SplitDiscovery.BY_ENUMERATOR) {
      throw new IllegalStateException(
          setup.describe() + " got splits from an enumerator but finds its own");
    }
    ((SourceReader) reader).addSplits(splits);
  }

  /** The source's enumerator assigns this reader no more splits; on the task thread. */
  public void notifyNoMoreSplits() throws Exception {
    if (splitDiscovery != SplitDiscovery.BY_ENUMERATOR) {
      throw new IllegalStateException(
          setup.describe() + " was told of no more splits from an enumerator but finds its own");
    }
    reader.notifyNoMoreSplits();
  }

  public CompletableFuture<Void> isAvailable() {
    return reader.isAvailable();
  }

  /**
   * Runs {@code action} where a checkpoint may be taken: for a pushing function, between two of its
   * holds of its lock, after what it emitted went down the chain or was kept back as {@code
   * emitted} says; for a reader, at once.
   */
  public void whilePaused(Emitted emitted, PausedAction action) throws Exception {
    if (pushing != null) {
      pushing.whilePaused(readerOutput, emitted, action);
    } else {
      action.run();
    }
  }

  /** Emits the end of event time (a bounded source ended). */
  public void emitFinalWatermark() throws Exception {
    output.emitWatermark(Long.MAX_VALUE);
  }

  @Override
  public OperatorSubtaskState snapshotState(long checkpointId, long timestamp) throws Exception {
    if (splitState != null) {
      splitState.update(new ArrayList<>(reader.snapshotState(checkpointId)));
    }
    return super.snapshotState(checkpointId, timestamp);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    if (reader != null) {
      reader.notifyCheckpointComplete(checkpointId);
    }
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    super.notifyCheckpointAborted(checkpointId);
    if (reader != null) {
      reader.notifyCheckpointAborted(checkpointId);
    }
  }

  @Override
  public boolean listensToCheckpoints() {
    return function instanceof ReaderSource || super.listensToCheckpoints();
  }

  /**
   * Closes the reader (a pushing function is cancelled and its thread waited for), then the rest.
   */
  @Override
  public void close() throws Exception {
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      super.close();
    }
  }

  /** Records the source sent to a dead-letter topic in this attempt (0 for a source without). */
  public long deadLetterRecords() {
    return function instanceof DeadLetterCounting counting ? counting.deadLetterRecords() : 0;
  }

  @Override
  public void processElement(Object record, long timestamp) {
    throw new UnsupportedOperationException("A source has no input");
  }

  private final class Context implements SourceReaderContext {
    @Override
    public int subtaskIndex() {
      return setup.subtaskIndex();
    }

    @Override
    public int parallelism() {
      return setup.parallelism();
    }

    @Override
    public List<SourceSplit> restoredSplits() {
      return splitState.get();
    }

    @Override
    public boolean splitsFromEnumerator() {
      return splitDiscovery == SplitDiscovery.BY_ENUMERATOR;
    }
  }
}
