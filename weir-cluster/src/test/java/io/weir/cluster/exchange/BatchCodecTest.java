package io.weir.cluster.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent;
import org.junit.jupiter.api.Test;

class BatchCodecTest {
  @Test
  void when_batchOfRecordsAndEventsIsEncoded_then_decodingGivesTheSameElementsInOrder()
      throws Exception {
    Object[] values = {
      "a",
      42L,
      new StreamEvent.Watermark(7),
      StreamEvent.IDLE,
      new StreamEvent.CheckpointBarrier(3, 99),
      StreamEvent.END_OF_DATA
    };
    long[] timestamps = {1, 2, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};

    Batch decoded =
        BatchCodec.decode(
            BatchCodec.encode(Batch.of(5, values, timestamps)), getClass().getClassLoader());

    assertThat(decoded.channel()).isEqualTo(5);
    assertThat(decoded.size()).isEqualTo(values.length);
    for (int i = 0; i < values.length; i++) {
      assertThat(decoded.value(i)).isEqualTo(values[i]);
      assertThat(decoded.timestamp(i)).isEqualTo(timestamps[i]);
    }
    assertThat(decoded.value(5)).isSameAs(StreamEvent.END_OF_DATA);
  }
}
