package io.weir.runtime.checkpoint.storage;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.functions.LeaseEpoch;
import io.weir.files.DurableFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;

/**
 * The one runner of a job's checkpoint directory: HELD -> RELEASED.
 *
 * <p>Two runs of one job on one checkpoint directory both resume from the same checkpoint, read the
 * same input, commit their own transactions and recover (commit, abort, rename, delete) each
 * other's: output is doubled while every run succeeds. A lease makes the second run fail before it
 * does any of that. It is an operating-system lock on {@value #LOCK_FILE} in the job directory,
 * held for the life of the run and released by the operating system when the process dies in any
 * way ({@code kill -9} included), so a crashed run never blocks its restart; and a record in
 * {@value #HOLDER_FILE} of who holds it, so that the refused run can name the running one. The
 * record also keeps the lease's epoch, one more with every acquisition and written durably before
 * the lease is used, which each checkpoint's metadata records: a checkpoint says which acquisition
 * wrote it.
 *
 * <p>Only a process that runs a job by itself takes the lease: a local run, or a lone job manager.
 * A highly available job manager does not: its ZooKeeper term fences every change to the job's
 * checkpoints already, and a new leader must not wait for a lock that a deposed leader, frozen but
 * alive, still holds. The lock is per process (the operating system knows no threads), so a second
 * acquisition in the same process is refused here as the operating system refuses another process.
 *
 * <p>Thread safe. {@link #release} is idempotent.
 */
public final class CheckpointDirectoryLease implements AutoCloseable {
  /** The file locked for the life of the run; never renamed, since the lock is on its inode. */
  public static final String LOCK_FILE = "_lease.lock";

  /** The holder record, replaced atomically by each acquisition. */
  public static final String HOLDER_FILE = "_lease";

  /** HELD -> RELEASED. */
  enum State {
    HELD,
    RELEASED;

    boolean canMoveTo(State next) {
      return this == HELD && next == RELEASED;
    }
  }

  // The lock files this process holds: closing any channel of a locked file can drop the process's
  // lock on it, so a second acquisition here is refused before it opens one.
  private static final Set<Path> HELD_BY_THIS_PROCESS = new HashSet<>();

  private final Path lockFile;
  private final Path jobDirectory;
  private final FileChannel channel;
  private final FileLock lock;
  private final LeaseHolder holder;
  private State state = State.HELD;

  private CheckpointDirectoryLease(
      Path lockFile, FileChannel channel, FileLock lock, LeaseHolder holder) {
    this.lockFile = lockFile;
    this.jobDirectory = lockFile.getParent();
    this.channel = channel;
    this.lock = lock;
    this.holder = holder;
  }

  /**
   * Takes the lease of {@code jobDirectory} (created if missing) for job {@code jobName}, in an
   * epoch one above the last; does not wait.
   *
   * @throws JobExecutionException with one line naming the running process and the directory when
   *     another run holds the lease, or naming the file that cannot be written
   */
  public static CheckpointDirectoryLease acquire(Path jobDirectory, String jobName, Clock clock)
      throws JobExecutionException {
    Path lockFile = jobDirectory.resolve(LOCK_FILE).toAbsolutePath().normalize();
    synchronized (HELD_BY_THIS_PROCESS) {
      if (HELD_BY_THIS_PROCESS.contains(lockFile)) {
        throw alreadyRunning(jobDirectory, jobName);
      }
      FileChannel channel = null;
      try {
        Files.createDirectories(jobDirectory);
        channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = tryLock(channel);
        if (lock == null) {
          channel.close();
          throw alreadyRunning(jobDirectory, jobName);
        }
        LeaseHolder holder = LeaseHolder.current(lastEpoch(jobDirectory) + 1, clock);
        DurableFiles.writeAtomically(jobDirectory.resolve(HOLDER_FILE), holder.toBytes());
        HELD_BY_THIS_PROCESS.add(lockFile);
        return new CheckpointDirectoryLease(lockFile, channel, lock, holder);
      } catch (IOException e) {
        closeQuietly(channel);
        throw new JobExecutionException(
            "Cannot take the lease of job '"
                + jobName
                + "' on checkpoint directory "
                + jobDirectory
                + ": "
                + e,
            e);
      }
    }
  }

  /** The epoch of the lease as it was last acquired in {@code jobDirectory}; 0 if never. */
  public static long lastEpoch(Path jobDirectory) throws IOException {
    try {
      return LeaseHolder.read(jobDirectory.resolve(HOLDER_FILE)).epoch();
    } catch (NoSuchFileException never) {
      return 0;
    }
  }

  /** This acquisition's epoch: above every earlier one's. */
  public long epoch() {
    return holder.epoch();
  }

  /** This acquisition as the fencing token its sinks record: the directory and the epoch. */
  public LeaseEpoch leaseEpoch() {
    return new LeaseEpoch(jobDirectory.toString(), holder.epoch());
  }

  /**
   * Throws when the holder record names a newer acquisition than this one: another runner took the
   * lease where the operating-system lock did not hold (a network file system that ignores locks, a
   * directory mounted twice). Reads the record; may block on the file system.
   *
   * @throws JobExecutionException with one line naming the job and both leases
   * @throws IOException when the holder record cannot be read
   */
  public void checkNotSuperseded(String jobName) throws JobExecutionException, IOException {
    long last = lastEpoch(jobDirectory);
    if (last > holder.epoch()) {
      throw new JobExecutionException(
          "job '"
              + jobName
              + "' is fenced: this run holds "
              + leaseEpoch().describe()
              + ", and a newer run ("
              + new LeaseEpoch(jobDirectory.toString(), last).describe()
              + ") took the lease since; its sinks are left to that run");
    }
  }

  /** This process, as the holder record names it. */
  public LeaseHolder holder() {
    return holder;
  }

  /** Gives the lease up; the holder record stays, keeping the epoch for the next acquisition. */
  public void release() {
    synchronized (HELD_BY_THIS_PROCESS) {
      if (!state.canMoveTo(State.RELEASED)) {
        return;
      }
      state = State.RELEASED;
      try {
        lock.release();
      } catch (IOException e) {
        // Closing the channel below releases the lock as well.
      }
      closeQuietly(channel);
      HELD_BY_THIS_PROCESS.remove(lockFile);
    }
  }

  @Override
  public void close() {
    release();
  }

  /** The lock, or null when another process holds it. */
  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException heldHereUnderAnotherPath) {
      return null;
    }
  }

  private static JobExecutionException alreadyRunning(Path jobDirectory, String jobName) {
    String holder;
    try {
      holder = LeaseHolder.read(jobDirectory.resolve(HOLDER_FILE)).describe();
    } catch (IOException e) {
      holder = "holder unknown: " + e.getMessage();
    }
    return new JobExecutionException(
        "job '"
            + jobName
            + "' is already running ("
            + holder
            + ") with checkpoint directory "
            + jobDirectory
            + "; stop it first");
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing was written through it; the lock goes with the channel or the process.
    }
  }
}
