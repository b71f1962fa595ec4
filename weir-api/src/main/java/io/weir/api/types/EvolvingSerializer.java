package io.weir.api.types;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.state.StateSerializer;

/**
 * A state serializer whose bytes are described by a schema, so that a later version of the state's
 * type can still read them: {@link TypeSerializer} for records and POJOs, Avro's for Avro records.
 * Give one to a state descriptor and the state survives a savepoint into a job whose type gained or
 * lost fields.
 *
 * <p>The runtime calls it on the task thread: {@link #schema()} when a checkpoint writes the state
 * (once per state, not per value), and {@link #readerOf} once per restored state, before the first
 * value is read, with the schema the checkpoint holds. Neither may block. It must be usable by
 * several threads at once and survive Java serialization, since it travels with the job.
 */
@PublicEvolving
public interface EvolvingSerializer<T> extends StateSerializer<T> {
  /** The schema of the bytes {@link #serialize} writes, as this serializer encodes it. */
  byte[] schema();

  /**
   * A serializer that reads bytes written by a serializer of the same kind whose {@link #schema()}
   * was {@code writtenSchema}, and returns values of this serializer's type; its {@code serialize}
   * is this serializer's.
   *
   * @throws TypeChangedException naming the field when the written bytes cannot be read as this
   *     type; the runtime then refuses the restore in one line naming the state and the operator
   */
  StateSerializer<T> readerOf(byte[] writtenSchema);
}
