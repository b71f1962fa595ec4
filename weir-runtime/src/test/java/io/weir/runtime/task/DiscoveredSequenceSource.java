package io.weir.runtime.task;

import io.weir.api.source.EnumeratedSource;
import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderOutput;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SourceSplit;
import io.weir.api.source.SplitEnumerator;
import io.weir.api.source.SplitEnumeratorContext;
import io.weir.runtime.task.SequenceReaderSource.SequenceSplit;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code splits} sequences of ids, {@code perSplit} each (split {@code s} emits {@code s *
 * perSplit} up to {@code (s + 1) * perSplit - 1}), which an enumerator discovers one at a time, one
 * each {@code discoveryPeriod}, and assigns to reader {@code s % parallelism}. A reader ends once
 * it read every split of its own.
 */
final class DiscoveredSequenceSource
    implements EnumeratedSource<Long, SequenceSplit, DiscoveredSequenceSource.Discovered> {
  private static final long serialVersionUID = 1L;

  /** Enumerators created from a checkpoint's state (the job's functions are copies: static). */
  static final AtomicInteger RESTORED_ENUMERATORS = new AtomicInteger();

  private final int splits;
  private final long perSplit;
  private final Duration discoveryPeriod;

  DiscoveredSequenceSource(int splits, long perSplit, Duration discoveryPeriod) {
    this.splits = splits;
    this.perSplit = perSplit;
    this.discoveryPeriod = discoveryPeriod;
  }

  /** The enumerator's checkpoint: how many splits it discovered, and which are not assigned. */
  record Discovered(int discovered, List<Integer> unassigned) implements Serializable {}

  @Override
  public Optional<SplitEnumerator<SequenceSplit, Discovered>> createEnumerator(
      SplitEnumeratorContext<SequenceSplit> context, Discovered restored) {
    if (restored != null) {
      RESTORED_ENUMERATORS.incrementAndGet();
    }
    return Optional.of(new Enumerator(context, restored));
  }

  @Override
  public SourceReader<Long, SequenceSplit> createReader(SourceReaderContext context) {
    if (!context.splitsFromEnumerator()) {
      throw new IllegalStateException("expected splits from the enumerator");
    }
    Reader reader = new Reader(context);
    for (SourceSplit split : context.restoredSplits()) {
      SequenceSplit sequence = (SequenceSplit) split;
      if (sequence.index() % context.parallelism() == context.subtaskIndex()) {
        reader.next.put(sequence.index(), sequence.next());
      }
    }
    return reader;
  }

  private final class Enumerator implements SplitEnumerator<SequenceSplit, Discovered> {
    private final SplitEnumeratorContext<SequenceSplit> context;
    private final List<Integer> unassigned = new ArrayList<>();
    private final Set<Integer> readers = new HashSet<>();
    private int discovered;

    Enumerator(SplitEnumeratorContext<SequenceSplit> context, Discovered restored) {
      this.context = context;
      if (restored != null) {
        discovered = restored.discovered();
        unassigned.addAll(restored.unassigned());
      }
    }

    @Override
    public void start() {
      context.callPeriodically(() -> null, (nothing, failure) -> discoverOne(), discoveryPeriod);
    }

    private void discoverOne() {
      if (discovered < splits) {
        unassigned.add(discovered++);
        assignWaiting();
      }
    }

    @Override
    public void addReader(int subtaskIndex) {
      readers.add(subtaskIndex);
      assignWaiting();
    }

    private void assignWaiting() {
      for (int reader : readers) {
        List<SequenceSplit> assigned = new ArrayList<>();
        for (int index : unassigned) {
          if (index % context.parallelism() == reader) {
            assigned.add(new SequenceSplit(index, 0));
          }
        }
        if (!assigned.isEmpty()) {
          context.assignSplits(reader, assigned);
          assigned.forEach(split -> unassigned.remove((Integer) split.index()));
        }
      }
    }

    @Override
    public Discovered snapshotState(long checkpointId) {
      return new Discovered(discovered, List.copyOf(unassigned));
    }

    @Override
    public void close() {}
  }

  private final class Reader implements SourceReader<Long, SequenceSplit> {
    private final Map<Integer, Long> next = new LinkedHashMap<>();
    private final int ownSplits;
    private CompletableFuture<Void> available = new CompletableFuture<>();

    Reader(SourceReaderContext context) {
      int own = 0;
      for (int index = 0; index < splits; index++) {
        if (index % context.parallelism() == context.subtaskIndex()) {
          own++;
        }
      }
      this.ownSplits = own;
    }

    @Override
    public InputStatus pollNext(ReaderOutput<Long> output) {
      for (Map.Entry<Integer, Long> split : next.entrySet()) {
        long position = split.getValue();
        if (position < perSplit) {
          output.collect(split.getKey() * perSplit + position);
          split.setValue(position + 1);
          return InputStatus.MORE_AVAILABLE;
        }
      }
      if (next.size() == ownSplits) {
        return InputStatus.END_OF_INPUT;
      }
      if (available.isDone()) {
        available = new CompletableFuture<>();
      }
      return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
      return available;
    }

    @Override
    public void addSplits(List<SequenceSplit> splits) {
      for (SequenceSplit split : splits) {
        next.putIfAbsent(split.index(), split.next());
      }
      available.complete(null);
    }

    @Override
    public List<SequenceSplit> snapshotState(long checkpointId) {
      List<SequenceSplit> state = new ArrayList<>();
      next.forEach((index, position) -> state.add(new SequenceSplit(index, position)));
      return state;
    }

    @Override
    public void close() {}
  }
}
