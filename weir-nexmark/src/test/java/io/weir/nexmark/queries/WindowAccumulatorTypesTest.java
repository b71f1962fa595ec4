package io.weir.nexmark.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.operators.window.AccumulatedTypes;
import org.junit.jupiter.api.Test;

/**
 * The window accumulators of the queries get the field-by-field serializer, not Java serialization:
 * on RocksDB a window's accumulator is written on every record.
 */
class WindowAccumulatorTypesTest {
  @Test
  void when_q4SumsPrices_then_itsWindowsKeepATypedAccumulator() {
    // when
    AccumulatedTypes.Serializers serializers =
        AccumulatedTypes.of(null, new Query4.SumPrices(), "q4");

    // then
    assertThat(serializers.untyped()).isNull();
    assertThat(serializers.typed()).isNotNull();
  }
}
