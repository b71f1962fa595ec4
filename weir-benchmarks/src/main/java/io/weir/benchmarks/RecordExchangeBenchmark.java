package io.weir.benchmarks;

import io.weir.examples.SeedRecords;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.ChannelSelector;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordWriter;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Records handed from one task to the next: the sender picks a target by key group and fills
 * batches, the receiver drains its input gate. One thread plays both sides, so the figure is the
 * exchange's own cost per record without thread hand-over.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecordExchangeBenchmark {
  private static final int BATCH_SIZE = 512;
  private static final int RECORDS = BATCH_SIZE * 8;

  private String[] records;
  private InputGate[] gates;
  private RecordWriter keyed;
  private RecordWriter forward;

  @Setup
  public void setUp() {
    records = new String[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
      records[i] = SeedRecords.generate(i);
    }
    gates = new InputGate[] {new InputGate(1, 64), new InputGate(1, 64)};
    keyed =
        new RecordWriter(
            ChannelSelector.byKeyGroup(
                record -> SeedRecords.word((String) record), 128, gates.length),
            List.of(gates),
            0,
            BATCH_SIZE);
    forward = new RecordWriter(ChannelSelector.forward(0), List.of(gates[0]), 0, BATCH_SIZE);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void keyedExchange(Blackhole blackhole) throws Exception {
    exchange(keyed, blackhole);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void forwardExchange(Blackhole blackhole) throws Exception {
    exchange(forward, blackhole);
  }

  private void exchange(RecordWriter writer, Blackhole blackhole) throws Exception {
    for (int i = 0; i < RECORDS; i++) {
      writer.emit(records[i], i);
    }
    writer.flushAll();
    for (InputGate gate : gates) {
      for (Batch batch = gate.poll(0); batch != null; batch = gate.poll(0)) {
        for (int i = 0; i < batch.size(); i++) {
          blackhole.consume(batch.value(i));
        }
      }
    }
  }
}
