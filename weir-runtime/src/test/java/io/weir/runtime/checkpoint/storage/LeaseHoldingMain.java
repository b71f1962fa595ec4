package io.weir.runtime.checkpoint.storage;

import java.nio.file.Path;
import java.time.Clock;

/**
 * Holds the lease of the job directory given as its argument until its standard input closes or it
 * is killed, in a JVM of its own: the lock of a lease belongs to a process.
 */
public final class LeaseHoldingMain {
  private LeaseHoldingMain() {}

  public static void main(String[] args) throws Exception {
    CheckpointDirectoryLease lease =
        CheckpointDirectoryLease.acquire(Path.of(args[0]), "seed", Clock.systemUTC());
    System.out.println("holding epoch " + lease.epoch());
    System.out.flush();
    while (System.in.read() != -1) {
      // Waits for the test to close standard input, or to kill this process.
    }
    lease.release();
  }
}
