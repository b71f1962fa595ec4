package io.weir.benchmarks;

import io.weir.examples.SeedRecords;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-record work around the seed job's records: making one (the generator), turning Kafka
 * bytes into one and back (the source's deserializer, the sink's serializer), and the seed's map.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SerializationBenchmark {
  private String record;
  private byte[] bytes;
  private long index;

  @Setup
  public void setUp() {
    record = SeedRecords.generate(123_456);
    bytes = record.getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public String generateRecord() {
    return SeedRecords.generate(index++);
  }

  @Benchmark
  public String deserializeUtf8() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Benchmark
  public byte[] serializeUtf8() {
    return record.getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public String incrementFrequency() {
    return SeedRecords.incrementFrequency(record);
  }
}
