package io.weir.cluster;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.KeyedStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Orders (numbers) and payments (text naming an order, in another order) connected by order id into
 * a keyed co-process function at parallelism 2, then an exactly-once file sink: both keyed inputs
 * cross task managers. Whichever of an order and its payment comes second writes {@code paid <id>}.
 * Arguments: output directory, order count, records per second per source subtask, and optionally
 * the microseconds a map between the match and the sink takes a record (a slow sink, so that
 * records queue in front of the match).
 */
public final class PaymentsJob {
  private PaymentsJob() {}

  public static void main(String[] args) throws Exception {
    Path output = Path.of(args[0]);
    long count = Long.parseLong(args[1]);
    long rate = Long.parseLong(args[2]);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    KeyedStream<Long, Long> orders =
        env.addSource(new GeneratorSource<>(count, index -> index, rate))
            .name("Orders")
            .uid("orders")
            .keyBy(order -> order);
    KeyedStream<String, Long> payments =
        env.addSource(new GeneratorSource<>(count, index -> "p" + (count - 1 - index), rate))
            .name("Payments")
            .uid("payments")
            .keyBy(payment -> Long.parseLong(payment.substring(1)));
    DataStream<String> paid =
        orders.connect(payments).process(new Match()).name("Match").uid("match");
    if (args.length > 3) {
      paid = paid.map(new SlowedMap<>(Long.parseLong(args[3]))).name("Slowed").uid("slowed");
    }
    paid.addSink(FileSink.<String>forDirectory(output).build()).name("Files").uid("files");
    env.execute("payments");
  }

  /** Writes an order once both it and its payment came; the first waits in keyed state. */
  static final class Match extends KeyedCoProcessFunction<Long, Long, String, String> {
    private transient ValueState<Boolean> waiting;

    @Override
    public void open() {
      waiting = getRuntimeContext().getState(new ValueStateDescriptor<>("waiting"));
    }

    @Override
    public void processElement1(
        Long order, KeyedProcessFunction.Context<Long> context, Collector<String> out) {
      meet(context.currentKey(), out);
    }

    @Override
    public void processElement2(
        String payment, KeyedProcessFunction.Context<Long> context, Collector<String> out) {
      meet(context.currentKey(), out);
    }

    private void meet(long order, Collector<String> out) {
      if (waiting.value() == null) {
        waiting.update(true);
      } else {
        waiting.clear();
        out.collect("paid " + order);
      }
    }
  }
}
