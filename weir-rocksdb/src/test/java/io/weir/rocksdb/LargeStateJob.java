package io.weir.rocksdb;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateBackends;
import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * A keyed job whose state is far larger than its heap: record {@code i} adds one to key {@code i %
 * keys}, whose state is its count and a block of bytes that follows from the key and the count
 * alone, so a reader can check every key's state against what it must be.
 *
 * <p>Arguments: checkpoint directory, parallelism of the keyed operator, keys, records, bytes per
 * value, records per second.
 */
public final class LargeStateJob {
  static final String NAME = "large-state";
  static final String OPERATOR_UID = "large-state";
  static final String STATE_NAME = "count-and-bytes";

  private LargeStateJob() {}

  public static void main(String[] args) throws Exception {
    Path checkpoints = Path.of(args[0]);
    int parallelism = Integer.parseInt(args[1]);
    long keys = Long.parseLong(args[2]);
    long records = Long.parseLong(args[3]);
    int valueBytes = Integer.parseInt(args[4]);
    long rate = Long.parseLong(args[5]);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.setStateBackend(StateBackends.rocksdb());
    env.enableCheckpointing(Duration.ofSeconds(1));
    env.setCheckpointDirectory(checkpoints);
    env.setRestartStrategy(RestartStrategy.none());
    env.addSource(new GeneratorSource<>(records, index -> index, rate))
        .setParallelism(1)
        .uid("source")
        .keyBy(index -> index % keys)
        .map(new CountWithBytes(keys, valueBytes))
        .uid(OPERATOR_UID)
        .addSink(new DiscardingSink<>())
        .uid("sink");
    env.execute(NAME);
  }

  /** The state key {@code key} must hold after {@code count} records. */
  static byte[] expectedValue(long key, long count, int valueBytes) {
    ByteBuffer value = ByteBuffer.allocate(Long.BYTES + valueBytes).putLong(count);
    byte[] block = new byte[valueBytes];
    SplittableRandom random = new SplittableRandom(key * 1_000_003L + count);
    for (int i = 0; i < valueBytes; i += Long.BYTES) {
      long bits = random.nextLong();
      for (int b = 0; b < Long.BYTES && i + b < valueBytes; b++) {
        block[i + b] = (byte) (bits >>> (8 * b));
      }
    }
    return value.put(block).array();
  }

  static final class CountWithBytes extends RichMapFunction<Long, Long> {
    private final long keys;
    private final int valueBytes;
    private transient ValueState<byte[]> state;

    CountWithBytes(long keys, int valueBytes) {
      this.keys = keys;
      this.valueBytes = valueBytes;
    }

    @Override
    public void open() {
      state =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>(STATE_NAME, StateSerializers.tagged()));
    }

    @Override
    public Long map(Long index) throws Exception {
      long key = index % keys;
      byte[] current = state.value();
      long count = current == null ? 1 : ByteBuffer.wrap(current).getLong() + 1;
      state.update(expectedValue(key, count, valueBytes));
      return key;
    }
  }
}
