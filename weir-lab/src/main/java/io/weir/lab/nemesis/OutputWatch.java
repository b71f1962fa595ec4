package io.weir.lab.nemesis;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A reader of the job's committed output that runs for the whole lab, as a reader downstream of the
 * job would, and notes when committed output arrived: the availability timeline. The output topic
 * ({@link CommittedOutputWatch}) or PostgreSQL's table ({@link CommittedRowsWatch}).
 *
 * <p>Reads on a thread of its own; the methods are called from the lab's thread. {@link #close}
 * stops the reader and rethrows what stopped it early; it may run twice.
 */
interface OutputWatch extends AutoCloseable {
  /** A moment committed output arrived, and how many records had arrived in all by then. */
  record Arrival(Instant at, long committed) {}

  /** The records shown so far. */
  long committed();

  List<Arrival> arrivals();

  /**
   * The offsets of every record shown as committed, by partition, for the aborted-read check; empty
   * where the output has no uncommitted records to compare with (a database's table).
   */
  Map<Integer, Set<Long>> offsets();

  @Override
  void close() throws InterruptedException;
}
