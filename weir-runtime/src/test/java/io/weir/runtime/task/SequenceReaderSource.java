package io.weir.runtime.task;

import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderOutput;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SourceSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A pulled source of {@code splits} sequences of ids, {@code perSplit} each: split {@code s} emits
 * {@code s * perSplit} up to {@code (s + 1) * perSplit - 1}. A reader keeps the splits whose index
 * modulo the parallelism is its subtask, restored positions included; one id per poll.
 */
final class SequenceReaderSource implements ReaderSource<Long> {
  private static final long serialVersionUID = 1L;
  private final int splits;
  private final long perSplit;

  SequenceReaderSource(int splits, long perSplit) {
    this.splits = splits;
    this.perSplit = perSplit;
  }

  @Override
  public SourceReader<Long, SequenceSplit> createReader(SourceReaderContext context) {
    Map<Integer, Long> restored = new HashMap<>();
    for (SourceSplit split : context.restoredSplits()) {
      SequenceSplit sequence = (SequenceSplit) split;
      restored.put(sequence.index(), sequence.next());
    }
    List<SequenceSplit> mine = new ArrayList<>();
    for (int index = 0; index < splits; index++) {
      if (index % context.parallelism() == context.subtaskIndex()) {
        mine.add(new SequenceSplit(index, restored.getOrDefault(index, 0L)));
      }
    }
    return new Reader(mine, perSplit);
  }

  /** One sequence and the next position in it. */
  record SequenceSplit(int index, long next) implements SourceSplit {
    @Override
    public String split() {
      return "sequence-" + index;
    }

    @Override
    public long position() {
      return next;
    }
  }

  private static final class Reader implements SourceReader<Long, SequenceSplit> {
    private final long[] next;
    private final int[] indexes;
    private final long perSplit;
    private int turn;

    Reader(List<SequenceSplit> splits, long perSplit) {
      this.next = new long[splits.size()];
      this.indexes = new int[splits.size()];
      for (int i = 0; i < splits.size(); i++) {
        next[i] = splits.get(i).next();
        indexes[i] = splits.get(i).index();
      }
      this.perSplit = perSplit;
    }

    @Override
    public InputStatus pollNext(ReaderOutput<Long> output) {
      for (int tried = 0; tried < next.length; tried++) {
        int i = turn;
        turn = (turn + 1) % next.length;
        if (next[i] < perSplit) {
          output.collect(indexes[i] * perSplit + next[i]);
          next[i]++;
          return InputStatus.MORE_AVAILABLE;
        }
      }
      return InputStatus.END_OF_INPUT;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public List<SequenceSplit> snapshotState(long checkpointId) {
      List<SequenceSplit> splits = new ArrayList<>();
      for (int i = 0; i < next.length; i++) {
        splits.add(new SequenceSplit(indexes[i], next[i]));
      }
      return splits;
    }

    @Override
    public void close() {}
  }
}
