package io.weir.benchmarks;

import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import io.weir.api.types.TypeSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The default type serializer against Java serialization, per record, both ways. Exchange: a batch
 * of orders encoded and decoded as the cluster's exchange does it, Java serialization with one
 * stream per batch (class descriptions once per batch) against one length-prefixed frame per
 * record. State: one session value written and read as a RocksDB access does, through the earlier
 * default ({@code StateSerializers.tagged()}, Java serialization for a record) against the type
 * serializer. The set-up prints the bytes per record of each.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TypeSerializerBenchmark {
  private static final int BATCH_SIZE = 512;

  /** A typical record between operators. */
  public record Order(
      long orderId, long customerId, String product, int quantity, double price, long timestamp)
      implements Serializable {}

  /** A typical keyed-state value: a session per user. */
  public record Session(
      long count, long firstSeen, long lastSeen, String lastPage, List<String> pages)
      implements Serializable {}

  private final TypeSerializer<Order> orders = TypeSerializer.of(Order.class);
  private final TypeSerializer<Session> sessions = TypeSerializer.of(Session.class);
  private final StateSerializer<Object> tagged = StateSerializers.tagged();
  private Order[] batch;
  private Session session;

  @Setup
  public void setUp() throws IOException, ClassNotFoundException {
    batch = new Order[BATCH_SIZE];
    for (int i = 0; i < BATCH_SIZE; i++) {
      batch[i] =
          new Order(
              1_000_000L + i,
              4_200L + i % 977,
              "product-" + i % 131,
              1 + i % 5,
              9.99 + i,
              1_700_000_000_000L + i);
    }
    session =
        new Session(
            42,
            1_700_000_000_000L,
            1_700_000_360_000L,
            "/checkout",
            List.of("/", "/cart", "/checkout"));
    System.out.printf(
        "%nbytes per order in a batch of %d: java %.1f, type serializer %.1f%n",
        BATCH_SIZE,
        (double) encodeJava(batch).length / BATCH_SIZE,
        (double) encodeTyped(batch).length / BATCH_SIZE);
    System.out.printf(
        "bytes per session value: java (tagged) %d, type serializer %d%n",
        tagged.serialize(session).length, sessions.serialize(session).length);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH_SIZE)
  public Object[] exchangeJava() throws IOException, ClassNotFoundException {
    return decodeJava(encodeJava(batch));
  }

  @Benchmark
  @OperationsPerInvocation(BATCH_SIZE)
  public Object[] exchangeTypeSerializer() throws IOException {
    return decodeTyped(encodeTyped(batch));
  }

  @Benchmark
  public Object stateJava() {
    return tagged.deserialize(tagged.serialize(session));
  }

  @Benchmark
  public Object stateTypeSerializer() {
    return sessions.deserialize(sessions.serialize(session));
  }

  private static byte[] encodeJava(Order[] records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + records.length * 32);
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      for (Order record : records) {
        out.writeObject(record);
      }
    }
    return bytes.toByteArray();
  }

  private static Object[] decodeJava(byte[] payload) throws IOException, ClassNotFoundException {
    Object[] records = new Object[BATCH_SIZE];
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(payload))) {
      for (int i = 0; i < BATCH_SIZE; i++) {
        records[i] = in.readObject();
      }
    }
    return records;
  }

  private byte[] encodeTyped(Order[] records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + records.length * 32);
    DataOutputStream out = new DataOutputStream(bytes);
    for (Order record : records) {
      byte[] frame = orders.serialize(record);
      out.writeInt(frame.length);
      out.write(frame);
    }
    return bytes.toByteArray();
  }

  private Object[] decodeTyped(byte[] payload) throws IOException {
    Object[] records = new Object[BATCH_SIZE];
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
    for (int i = 0; i < BATCH_SIZE; i++) {
      byte[] frame = new byte[in.readInt()];
      in.readFully(frame);
      records[i] = orders.deserialize(frame);
    }
    return records;
  }
}
