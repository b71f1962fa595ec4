package io.weir.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.types.TypeSerializer;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.KeyedTimerQueue.Timer;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heap snapshots written on the snapshot thread while the task thread goes on changing the state:
 * the checkpoint holds the state at the barrier, and the live state keeps every change.
 */
class HeapKeyedStateBackendAsyncSnapshotTest {
  private static final int MAX_PARALLELISM = 128;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM - 1);
  private static final long KEYS = 300;

  @TempDir Path job;

  private final ExecutorService snapshotThread = Executors.newSingleThreadExecutor();
  private final Gate gate = new Gate(Thread.currentThread());

  @AfterEach
  void stopSnapshotThread() throws InterruptedException {
    gate.open();
    snapshotThread.shutdown();
    assertThat(snapshotThread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
  }

  /** A mutable value kept by Java serialization. */
  static final class Tally implements Serializable {
    private static final long serialVersionUID = 1L;
    long count;

    Tally(long count) {
      this.count = count;
    }
  }

  /** A mutable value kept through its type serializer. */
  public static final class Bid {
    public long price;
    public String bidder;

    public Bid() {}

    Bid(long price, String bidder) {
      this.price = price;
      this.bidder = bidder;
    }
  }

  /**
   * Holds the snapshot thread back the first time it writes a value, until {@link #open}: what the
   * task thread does meanwhile really races the write. The task thread itself passes.
   */
  static final class Gate implements EvolvingSerializer<String> {
    private final transient Thread taskThread;
    private final transient CountDownLatch writing = new CountDownLatch(1);
    private final transient CountDownLatch opened = new CountDownLatch(1);

    Gate(Thread taskThread) {
      this.taskThread = taskThread;
    }

    @Override
    public byte[] serialize(String value) {
      if (Thread.currentThread() != taskThread) {
        writing.countDown();
        try {
          if (!opened.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("The gate was never opened");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] schema() {
      return "gate".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public io.weir.api.state.StateSerializer<String> readerOf(byte[] writtenSchema) {
      return this;
    }

    void awaitWriting() throws InterruptedException {
      assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();
    }

    void open() {
      opened.countDown();
    }
  }

  /** The states of one backend, declared as an operator declares them. */
  private final class States {
    final HeapKeyedStateBackend backend;
    final ValueState<String> gated;
    final ValueState<String> values;
    final ListState<Long> lists;
    final MapState<String, Long> maps;
    final ValueState<Tally> tallies;
    final ValueState<Bid> bids;
    final KeyedTimerQueue timers;

    States(KeyGroupRange range, OperatorSubtaskState restored) {
      backend =
          (HeapKeyedStateBackend)
              new HeapKeyedStateBackendFactory()
                  .create(
                      new KeyedBackendContext(
                          "job",
                          "auction-operator",
                          0,
                          range,
                          MAX_PARALLELISM,
                          restored,
                          id ->
                              Optional.of(
                                  new SnapshotFiles(
                                      job.resolve("shared"), true, checkpointDirectory(id)))));
      gated = backend.getState(new ValueStateDescriptor<>("gated", gate));
      values = backend.getState(new ValueStateDescriptor<>("values"));
      lists = backend.getListState(new ListStateDescriptor<>("lists"));
      maps = backend.getMapState(new MapStateDescriptor<>("maps"));
      tallies = backend.getState(new ValueStateDescriptor<>("tallies"));
      bids = backend.getState(new ValueStateDescriptor<>("bids", TypeSerializer.of(Bid.class)));
      timers = backend.timerQueue("timers");
    }

    /** Every state of every key, as text, keyed by key then state. */
    Map<Long, Map<String, Object>> read(long keys) throws Exception {
      Map<Long, Map<String, Object>> all = new TreeMap<>();
      for (long key = 0; key < keys; key++) {
        if (!backend.range().contains(KeyGroups.keyGroupOf(key, MAX_PARALLELISM))) {
          continue;
        }
        backend.setCurrentKey(key);
        Map<String, Object> states = new TreeMap<>();
        maybePut(states, "gated", gated.value());
        maybePut(states, "values", values.value());
        maybePut(states, "lists", lists.get().isEmpty() ? null : lists.get());
        maybePut(states, "maps", maps.isEmpty() ? null : new TreeMap<>(maps.entries()));
        maybePut(states, "tallies", tallies.value() == null ? null : tallies.value().count);
        Bid bid = bids.value();
        maybePut(states, "bids", bid == null ? null : bid.price + " by " + bid.bidder);
        if (!states.isEmpty()) {
          all.put(key, states);
        }
      }
      List<String> fired = new ArrayList<>();
      for (Timer timer = timers.pollDue(Long.MAX_VALUE);
          timer != null;
          timer = timers.pollDue(Long.MAX_VALUE)) {
        fired.add(timer.key() + "@" + timer.time());
      }
      all.put(-1L, Map.of("timers", fired.stream().sorted().toList()));
      return all;
    }
  }

  private static void maybePut(Map<String, Object> states, String name, Object value) {
    if (value != null) {
      states.put(name, value);
    }
  }

  private Path checkpointDirectory(long checkpointId) {
    return job.resolve("chk-" + checkpointId);
  }

  private OperatorSubtaskState checkpoint(Map<Integer, byte[]> keyGroups, long checkpointId) {
    return new OperatorSubtaskState(Map.of(), Map.of(), keyGroups)
        .restoredFrom(checkpointDirectory(checkpointId));
  }

  /** What the checkpoint restores into one subtask, or into {@code parallelism} of them. */
  private Map<Long, Map<String, Object>> restore(
      Map<Integer, byte[]> keyGroups, long checkpointId, int parallelism, long keys)
      throws Exception {
    Map<Long, Map<String, Object>> all = new TreeMap<>();
    List<String> timers = new ArrayList<>();
    for (int subtask = 0; subtask < parallelism; subtask++) {
      KeyGroupRange range = KeyGroups.rangeOf(subtask, MAX_PARALLELISM, parallelism);
      Map<Long, Map<String, Object>> restored =
          new States(range, checkpoint(keyGroups, checkpointId)).read(keys);
      @SuppressWarnings("unchecked")
      List<String> fired = (List<String>) restored.remove(-1L).get("timers");
      timers.addAll(fired);
      all.putAll(restored);
    }
    all.put(-1L, Map.of("timers", timers.stream().sorted().toList()));
    return all;
  }

  private static void fill(States states, long keys, String tag) {
    for (long key = 0; key < keys; key++) {
      states.backend.setCurrentKey(key);
      states.gated.update(tag + key);
      states.values.update(tag + "-bid-" + key);
      states.lists.add(key);
      states.lists.add(key + 1);
      states.maps.put("first", key);
      states.tallies.update(new Tally(key));
      states.bids.update(new Bid(key, tag + "-bidder"));
      states.timers.register(1_000 + key);
    }
  }

  /** Changes every kind of state of every key, most values in place. */
  private static void change(States states, long keys) {
    for (long key = 0; key < keys; key++) {
      states.backend.setCurrentKey(key);
      states.values.update("later-" + key);
      states.lists.add(99L);
      states.maps.put("later", key);
      states.maps.remove("first");
      states.tallies.value().count += 100; // in place, as a function may, without update
      states.bids.value().price += 7; // in place, through the type serializer's kind of value
      states.timers.delete(1_000 + key);
      states.timers.register(2_000 + key);
    }
    states.backend.setCurrentKey(0L);
    states.values.clear();
    states.backend.setCurrentKey(KEYS + 1);
    states.values.update("a key added after the barrier");
  }

  private CompletableFuture<Map<Integer, byte[]>> materializeOnSnapshotThread(
      States states, long checkpointId) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return states.backend.materializeSnapshot(checkpointId);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        snapshotThread);
  }

  @Test
  void when_theStateChangesWhileItsSnapshotIsWritten_then_theCheckpointHoldsTheStateAtTheBarrier()
      throws Exception {
    // given: the state at the barrier of checkpoint 1, its write held back mid-way
    States states = new States(ALL, OperatorSubtaskState.EMPTY);
    fill(states, KEYS, "a");
    assertThat(states.backend.snapshot(1)).isEmpty();
    CompletableFuture<Map<Integer, byte[]>> written = materializeOnSnapshotThread(states, 1);
    gate.awaitWriting();

    // when: records change values, lists, maps, timers and values in place meanwhile
    change(states, KEYS);
    gate.open();
    Map<Integer, byte[]> keyGroups = written.get(30, TimeUnit.SECONDS);

    // then: restored whole and at two subtasks, the checkpoint is the state at the barrier
    assertThat(restore(keyGroups, 1, 1, KEYS + 2)).isEqualTo(filled(KEYS));
    assertThat(restore(keyGroups, 1, 2, KEYS + 2)).isEqualTo(filled(KEYS));
    // and the live state kept every change
    assertThat(states.read(KEYS + 2)).isEqualTo(changed(KEYS));
  }

  @Test
  void when_aCheckpointFollowsOneStillBeingWritten_then_itWaitsAndEachHoldsItsBarriersState()
      throws Exception {
    // given: checkpoint 1 being written, held back, while the state changes
    States states = new States(ALL, OperatorSubtaskState.EMPTY);
    fill(states, KEYS, "a");
    states.backend.snapshot(1);
    CompletableFuture<Map<Integer, byte[]>> first = materializeOnSnapshotThread(states, 1);
    gate.awaitWriting();
    change(states, KEYS);

    // when: the barrier of checkpoint 2 comes before the write of checkpoint 1 ends
    Thread taskThread = Thread.currentThread();
    AtomicBoolean opened = new AtomicBoolean();
    CompletableFuture<Void> opener =
        CompletableFuture.runAsync(
            () -> {
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> taskThread.getState() == Thread.State.WAITING);
              opened.set(true);
              gate.open();
            });
    states.backend.snapshot(2);

    // then: the second snapshot waited until the first write was let go
    assertThat(opened).isTrue();
    opener.get(30, TimeUnit.SECONDS);
    CompletableFuture<Map<Integer, byte[]>> second = materializeOnSnapshotThread(states, 2);
    fill(states, KEYS, "c"); // changes racing the second write
    assertThat(restore(first.get(30, TimeUnit.SECONDS), 1, 1, KEYS + 2)).isEqualTo(filled(KEYS));
    assertThat(restore(second.get(30, TimeUnit.SECONDS), 2, 2, KEYS + 2)).isEqualTo(changed(KEYS));
  }

  @Test
  void when_theNextBarrierComesBeforeTheWriteStarted_then_theTaskThreadWritesItAndBothAreWhole()
      throws Exception {
    // given: checkpoint 1 frozen, its asynchronous part queued behind other checkpoints' (or never
    // coming: a later operator of the chain declined the checkpoint)
    States states = new States(ALL, OperatorSubtaskState.EMPTY);
    fill(states, KEYS, "a");
    states.backend.snapshot(1);
    change(states, KEYS);

    // when: the next barrier comes
    states.backend.snapshot(2);

    // then: the task thread wrote checkpoint 1 as it was at its barrier, and 2 holds its own
    assertThat(checkpointDirectory(1)).isDirectory();
    assertThat(checkpointDirectory(2)).doesNotExist();
    gate.open();
    Map<Integer, byte[]> first = materializeOnSnapshotThread(states, 1).get(30, TimeUnit.SECONDS);
    Map<Integer, byte[]> second = materializeOnSnapshotThread(states, 2).get(30, TimeUnit.SECONDS);
    assertThat(restore(first, 1, 1, KEYS + 2)).isEqualTo(filled(KEYS));
    assertThat(restore(second, 2, 1, KEYS + 2)).isEqualTo(changed(KEYS));
  }

  @Test
  void when_theBackendClosesWhileItsSnapshotIsWritten_then_theWriteEndsWhole() throws Exception {
    // given
    States states = new States(ALL, OperatorSubtaskState.EMPTY);
    fill(states, KEYS, "a");
    states.backend.snapshot(1);
    CompletableFuture<Map<Integer, byte[]>> written = materializeOnSnapshotThread(states, 1);
    gate.awaitWriting();

    // when: the task ends meanwhile; then closing does not wait for the write
    states.backend.close();
    assertThat(written).isNotDone();
    gate.open();

    // then: the write ends whole
    assertThat(restore(written.get(30, TimeUnit.SECONDS), 1, 1, KEYS)).isEqualTo(filled(KEYS));
  }

  @Test
  void when_aLaterCheckpointCompletesBeforeTheAsynchronousPart_then_thatPartDeclines()
      throws Exception {
    // given: checkpoint 1 frozen and written by the task thread at barrier 2
    States states = new States(ALL, OperatorSubtaskState.EMPTY);
    fill(states, KEYS, "a");
    states.backend.snapshot(1);
    gate.open();
    states.backend.snapshot(2);
    assertThat(restore(states.backend.materializeSnapshot(2), 2, 1, KEYS)).isEqualTo(filled(KEYS));

    // when: checkpoint 2 completes before checkpoint 1's asynchronous part comes
    states.backend.notifyCheckpointComplete(2);

    // then: that part declines instead of acknowledging no keyed state
    assertThatThrownBy(() -> states.backend.materializeSnapshot(1))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("checkpoint 1");
  }

  /** What {@link #fill} with tag "a" leaves, read as {@link States#read} reads it. */
  private static Map<Long, Map<String, Object>> filled(long keys) {
    Map<Long, Map<String, Object>> all = new TreeMap<>();
    List<String> timers = new ArrayList<>();
    for (long key = 0; key < keys; key++) {
      Map<String, Object> states = new TreeMap<>();
      states.put("gated", "a" + key);
      states.put("values", "a-bid-" + key);
      states.put("lists", List.of(key, key + 1));
      states.put("maps", Map.of("first", key));
      states.put("tallies", key);
      states.put("bids", key + " by a-bidder");
      all.put(key, states);
      timers.add(key + "@" + (1_000 + key));
    }
    all.put(-1L, Map.of("timers", timers.stream().sorted().toList()));
    return all;
  }

  /** What {@link #change} leaves after {@link #fill} with tag "a". */
  private static Map<Long, Map<String, Object>> changed(long keys) {
    Map<Long, Map<String, Object>> all = new TreeMap<>();
    List<String> timers = new ArrayList<>();
    for (long key = 0; key < keys; key++) {
      Map<String, Object> states = new TreeMap<>();
      states.put("gated", "a" + key);
      if (key != 0) {
        states.put("values", "later-" + key);
      }
      states.put("lists", List.of(key, key + 1, 99L));
      states.put("maps", Map.of("later", key));
      states.put("tallies", key + 100);
      states.put("bids", (key + 7) + " by a-bidder");
      all.put(key, states);
      timers.add(key + "@" + (2_000 + key));
    }
    all.put(keys + 1, Map.of("values", "a key added after the barrier"));
    all.put(-1L, Map.of("timers", timers.stream().sorted().toList()));
    return all;
  }
}
