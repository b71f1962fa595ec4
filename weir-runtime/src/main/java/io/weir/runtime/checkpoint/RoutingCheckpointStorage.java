package io.weir.runtime.checkpoint;

import io.weir.api.functions.LeaseEpoch;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The job's checkpoint storage, except for the checkpoints routed elsewhere: a savepoint goes to
 * the directory the user chose, through the same protocol as any checkpoint.
 *
 * <p>Once {@linkplain #handOver handed over} (its job manager lost the leadership, and a new leader
 * carries the job on from the same directory), or while its {@linkplain #guardWith owner check}
 * fails, it completes, discards and prunes nothing: the new leader may reuse the id of a checkpoint
 * this one still had pending.
 *
 * <p>Its {@linkplain #claimIdsWith id claims} keep the ids of owners by turns apart: each id is
 * claimed before its barrier goes out, and a new owner starts above every claimed id, so what a
 * deposed owner still completes lands in a directory no later owner uses.
 */
public final class RoutingCheckpointStorage implements CheckpointStorage {
  private final CheckpointStorage checkpoints;
  private final Map<Long, CheckpointStorage> routes = new ConcurrentHashMap<>();
  private volatile boolean handedOver;
  private volatile BooleanSupplier owner = () -> true;
  private volatile CheckpointIdClaims claims = CheckpointIdClaims.UNSHARED;
  private final Failpoints failpoints;
  private final LeaseEpoch leaseEpoch;

  public RoutingCheckpointStorage(CheckpointStorage checkpoints) {
    this(checkpoints, Failpoints.none(), LeaseEpoch.NONE);
  }

  /**
   * @param failpoints the job's, for {@link FailpointNames#COORDINATOR_METADATA_CONFIRMED}
   * @param leaseEpoch the lease this process holds on the job's checkpoint directory, whose epoch
   *     is written into the metadata of every checkpoint and savepoint it completes (0 without one)
   */
  public RoutingCheckpointStorage(
      CheckpointStorage checkpoints, Failpoints failpoints, LeaseEpoch leaseEpoch) {
    this.checkpoints = checkpoints;
    this.failpoints = failpoints;
    this.leaseEpoch = leaseEpoch;
  }

  /**
   * From now on another process owns the job's checkpoints: completing one fails, discarding one
   * and pruning older ones do nothing. A completion already writing its metadata ends first.
   */
  public void handOver() {
    handedOver = true;
  }

  /**
   * Asks {@code owner} before each completion, discard and pruning whether this process still owns
   * the job's checkpoints (a job manager: whether it still leads); on any thread, may block.
   */
  public void guardWith(BooleanSupplier owner) {
    this.owner = owner;
  }

  /** Claims each checkpoint id with {@code claims} before its barrier goes out. */
  public void claimIdsWith(CheckpointIdClaims claims) {
    this.claims = claims;
  }

  /** The lowest checkpoint id no owner of the job's checkpoints has claimed; may block. */
  public long firstUnclaimedCheckpointId() throws IOException {
    return claims.firstUnclaimed();
  }

  @Override
  public void claimCheckpointId(long checkpointId) throws IOException {
    if (handedOver) {
      throw new IOException(
          "Checkpoint "
              + checkpointId
              + " is not triggered: this process no longer owns the job's checkpoints");
    }
    try {
      claims.claim(checkpointId);
    } catch (IOException e) {
      routes.remove(checkpointId);
      throw e;
    }
  }

  /**
   * Whether this process still owns the job's checkpoints and what goes with them (a job manager:
   * whether it still leads, confirmed afresh when its last confirmation is old); may block.
   */
  public boolean owned() {
    return !handedOver && owner.getAsBoolean();
  }

  /** The lease this process holds on the job's checkpoint directory: its sinks' fencing token. */
  public LeaseEpoch leaseEpoch() {
    return leaseEpoch;
  }

  /** Sends everything of checkpoint {@code checkpointId} to {@code storage}. */
  public void route(long checkpointId, CheckpointStorage storage) {
    routes.put(checkpointId, storage);
  }

  private CheckpointStorage storageOf(long checkpointId) {
    return routes.getOrDefault(checkpointId, checkpoints);
  }

  @Override
  public StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) throws IOException {
    return storageOf(checkpointId).storeTaskState(checkpointId, taskId, subtaskIndex, state);
  }

  @Override
  public Optional<SnapshotFiles> snapshotFiles(long checkpointId) {
    return storageOf(checkpointId).snapshotFiles(checkpointId);
  }

  @Override
  public CompletableFuture<Void> prepareInBackground(CheckpointMetadata example) {
    return checkpoints.prepareInBackground(example);
  }

  @Override
  public CompletedCheckpoint complete(CheckpointMetadata metadata) throws IOException {
    Completion completion = completeDeferringCleanUp(metadata);
    completion.cleanUp().run();
    return completion.checkpoint();
  }

  /** A savepoint is recorded in the job's storage first, so a resubmission finds it. */
  @Override
  public Completion completeDeferringCleanUp(CheckpointMetadata metadata) throws IOException {
    if (!owned()) {
      throw new IOException(
          "Checkpoint "
              + metadata.checkpointId()
              + " is not completed: this process no longer owns the job's checkpoints");
    }
    failpoints.hit(FailpointNames.COORDINATOR_METADATA_CONFIRMED);
    CheckpointStorage storage = storageOf(metadata.checkpointId());
    routes.remove(metadata.checkpointId());
    Optional<java.nio.file.Path> savepoint = storage.savepointDirectory();
    if (savepoint.isPresent()) {
      checkpoints.recordSavepoint(metadata.checkpointId(), savepoint.get());
    }
    Completion completion =
        storage.completeDeferringCleanUp(metadata.withLeaseEpoch(leaseEpoch.epoch()));
    Runnable cleanUp = completion.cleanUp();
    return new Completion(
        completion.checkpoint(),
        () -> {
          if (owned()) {
            cleanUp.run();
          }
        });
  }

  @Override
  public void discard(long checkpointId) {
    if (!owned()) {
      return;
    }
    CheckpointStorage storage = routes.remove(checkpointId);
    if (storage != null && storage.savepointDirectory().isPresent()) {
      checkpoints.forgetSavepoint(checkpointId);
    }
    (storage != null ? storage : checkpoints).discard(checkpointId);
  }

  @Override
  public Optional<CompletedCheckpoint> latest(RestoreListener listener) throws IOException {
    return checkpoints.latest(listener);
  }

  @Override
  public String describe() {
    return checkpoints.describe();
  }
}
