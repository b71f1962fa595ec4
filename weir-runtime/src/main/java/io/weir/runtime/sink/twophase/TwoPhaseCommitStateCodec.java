package io.weir.runtime.sink.twophase;

import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionStatus;
import io.weir.api.state.StateSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns {@link TwoPhaseCommitState} into the bytes stored in operator state and back, with the
 * user's serializers for transactions and context. The layout starts with a version number so that
 * a later layout can still read checkpoints written by this one.
 */
final class TwoPhaseCommitStateCodec<TXN, CONTEXT> {
  private static final int VERSION = 1;

  private final StateSerializer<TXN> transactionSerializer;
  private final StateSerializer<CONTEXT> contextSerializer;

  TwoPhaseCommitStateCodec(
      StateSerializer<TXN> transactionSerializer, StateSerializer<CONTEXT> contextSerializer) {
    this.transactionSerializer = transactionSerializer;
    this.contextSerializer = contextSerializer;
  }

  byte[] encode(TwoPhaseCommitState<TXN, CONTEXT> state) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(VERSION);
      writeTransaction(out, state.current());
      out.writeInt(state.pending().size());
      for (var entry : state.pending().entrySet()) {
        out.writeLong(entry.getKey());
        writeTransaction(out, entry.getValue());
      }
      out.writeBoolean(state.context().isPresent());
      if (state.context().isPresent()) {
        writeBytes(out, contextSerializer.serialize(state.context().get()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot encode the two-phase commit state", e);
    }
    return bytes.toByteArray();
  }

  TwoPhaseCommitState<TXN, CONTEXT> decode(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      int version = in.readInt();
      if (version != VERSION) {
        throw new IllegalStateException(
            "Unknown two-phase commit state version " + version + ", expected " + VERSION);
      }
      TransactionHolder<TXN> current = readTransaction(in);
      int pendingCount = in.readInt();
      SortedMap<Long, TransactionHolder<TXN>> pending = new TreeMap<>();
      for (int i = 0; i < pendingCount; i++) {
        long checkpointId = in.readLong();
        pending.put(checkpointId, readTransaction(in).moveTo(TransactionStatus.PRE_COMMITTED));
      }
      Optional<CONTEXT> context =
          in.readBoolean()
              ? Optional.of(contextSerializer.deserialize(readBytes(in)))
              : Optional.empty();
      return new TwoPhaseCommitState<>(current, pending, context);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot decode the two-phase commit state", e);
    }
  }

  private void writeTransaction(DataOutputStream out, TransactionHolder<TXN> holder)
      throws IOException {
    out.writeLong(holder.beginTimeMillis());
    writeBytes(out, transactionSerializer.serialize(holder.handle()));
  }

  private TransactionHolder<TXN> readTransaction(DataInputStream in) throws IOException {
    long beginTimeMillis = in.readLong();
    return new TransactionHolder<>(
        transactionSerializer.deserialize(readBytes(in)), beginTimeMillis);
  }

  private static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
    out.writeInt(value.length);
    out.write(value);
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    byte[] value = new byte[in.readInt()];
    in.readFully(value);
    return value;
  }
}
