package io.weir.benchmarks;

import io.weir.api.types.TypeSerializer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One struct value encoded and decoded by the type serializer, as a RocksDB state access does on
 * every record: a record of longs and a string (a Nexmark bid), and a POJO with getters and
 * setters. What it measures is the per-field access, so the values stay small.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StructCodecBenchmark {
  /** A Nexmark bid: four longs and a string. */
  public record Bid(long auction, long bidder, long price, long dateTime, String channel) {}

  /** A POJO of primitives and a string, with getters and setters. */
  public static class Seller {
    private long id;
    private long auctions;
    private int reserve;
    private double rating;
    private boolean active;
    private String city;

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public long getAuctions() {
      return auctions;
    }

    public void setAuctions(long auctions) {
      this.auctions = auctions;
    }

    public int getReserve() {
      return reserve;
    }

    public void setReserve(int reserve) {
      this.reserve = reserve;
    }

    public double getRating() {
      return rating;
    }

    public void setRating(double rating) {
      this.rating = rating;
    }

    public boolean isActive() {
      return active;
    }

    public void setActive(boolean active) {
      this.active = active;
    }

    public String getCity() {
      return city;
    }

    public void setCity(String city) {
      this.city = city;
    }
  }

  private static final int ROUND = 500_000;
  private static volatile Object blackhole;

  private final TypeSerializer<Bid> bids = TypeSerializer.of(Bid.class);
  private final TypeSerializer<Seller> sellers = TypeSerializer.of(Seller.class);
  private final Bid bid = new Bid(1_001L, 2_002L, 1_234_567L, 1_700_000_000_000L, "Google");
  private final Seller seller = seller();

  @Benchmark
  public Bid record() {
    return bids.deserialize(bids.serialize(bid));
  }

  @Benchmark
  public Seller pojo() {
    return sellers.deserialize(sellers.serialize(seller));
  }

  /**
   * Thread CPU per encode and decode of each value: the median of 15 rounds of 500,000 after 10,
   * which on a shared machine varies less than the benchmark's wall-clock time.
   */
  public static void main(String[] args) {
    StructCodecBenchmark benchmark = new StructCodecBenchmark();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, Supplier<Object>> values =
        Map.of("record", benchmark::record, "POJO", benchmark::pojo);
    for (String value : List.of("record", "POJO")) {
      long[] cpu = new long[15];
      for (int round = -10; round < cpu.length; round++) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < ROUND; i++) {
          blackhole = values.get(value).get();
        }
        if (round >= 0) {
          cpu[round] = threads.getCurrentThreadCpuTime() - start;
        }
      }
      Arrays.sort(cpu);
      System.out.printf("%s: %d ns CPU per encode and decode%n", value, cpu[7] / ROUND);
    }
  }

  private static Seller seller() {
    Seller seller = new Seller();
    seller.setId(1_001L);
    seller.setAuctions(42);
    seller.setReserve(500);
    seller.setRating(4.5);
    seller.setActive(true);
    seller.setCity("Portland");
    return seller;
  }
}
