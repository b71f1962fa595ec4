package io.weir.runtime.state;

import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import java.util.Map;

/**
 * The keyed state of one operator in one subtask: the user's states and the operator's own tables
 * (timers, window contents), all scoped to the current key and stored by key group so that a
 * restore with another parallelism can take whole key groups.
 *
 * <p>Threads and order: everything but {@link #materializeSnapshot} runs on the task thread. {@link
 * #setCurrentKey} precedes every access of a record or timer. A checkpoint calls {@link #snapshot}
 * on the task thread, which holds records back meanwhile (it may write the state into the
 * checkpoint's files through a buffer, or freeze it for the snapshot thread, never force files to
 * disk; it may wait for an earlier checkpoint's asynchronous part of the same backend), then {@link
 * #materializeSnapshot} for the same id on the task's snapshot thread, which may block on I/O
 * (writing or forcing files to disk) and runs concurrently with further records and with the next
 * checkpoints' synchronous parts. {@link #close} ends the backend on every path out of the task
 * (finish, failure, cancel) and releases its native resources and local files.
 */
public interface KeyedStateBackend extends KeyedStateStore, AutoCloseable {
  /** Makes {@code key} the current key; throws when its key group is not this subtask's. */
  void setCurrentKey(Object key);

  Object currentKey();

  KeyGroupRange range();

  /** A table of the operator's own, by name, its values in the tagged default; see below. */
  default KeyedTable table(String name) {
    return table(name, StateSerializers.tagged());
  }

  /**
   * A table of the operator's own, by name; created on first use, with the serializer of that use.
   * A backend that keeps values serialized writes them with {@code valueSerializer} (the heap keeps
   * the objects). An {@link io.weir.api.types.EvolvingSerializer}'s schema is kept with the table,
   * and a restore reads the table through the schema it was written with, as for a user's state;
   * the serializer also reads what the table held before it had one.
   */
  KeyedTable table(String name, StateSerializer<Object> valueSerializer);

  /**
   * The timer queue of the operator's own, by name; made once per name, when the operator opens
   * (after the restore, whose timers it holds).
   */
  KeyedTimerQueue timerQueue(String name);

  /**
   * The synchronous part of checkpoint {@code checkpointId}: returns this subtask's keyed state by
   * key group, as the checkpoint will store it, but for the key groups {@link #materializeSnapshot}
   * returns. A backend that writes files writes, keeps aside or freezes them here and makes them
   * durable in {@link #materializeSnapshot}.
   */
  Map<Integer, byte[]> snapshot(long checkpointId) throws Exception;

  /**
   * The asynchronous part of checkpoint {@code checkpointId}, after {@link #snapshot}: the state is
   * durable where the key groups say when this returns. Returns the key groups written only now,
   * which the checkpoint stores with those {@link #snapshot} returned (none of them in both); empty
   * when {@link #snapshot} returned all. Throwing declines the checkpoint.
   */
  default Map<Integer, byte[]> materializeSnapshot(long checkpointId) throws Exception {
    return Map.of();
  }

  /** Checkpoint {@code checkpointId} completed: files it stored may be the base of the next. */
  default void notifyCheckpointComplete(long checkpointId) {}

  /** Releases what the backend holds; idempotent; never throws for a backend already closed. */
  @Override
  void close();
}
