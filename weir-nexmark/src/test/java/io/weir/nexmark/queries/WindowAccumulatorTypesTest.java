package io.weir.nexmark.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.types.TypeSerializer;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.runtime.operators.window.AccumulatedTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The window accumulators of the queries get the field-by-field serializer, not Java serialization:
 * on RocksDB a window's accumulator is written on every record.
 */
class WindowAccumulatorTypesTest {
  @Test
  void when_q4SumsPrices_then_itsWindowsKeepATypedAccumulator() {
    assertTyped(AccumulatedTypes.of(null, new Query4.SumPrices(), "q4"));
  }

  @Test
  void when_q15CountsBids_then_itsWindowsKeepATypedAccumulator() {
    assertTyped(AccumulatedTypes.of(null, new Query15.Report(), "q15"));
  }

  @Test
  void when_q16CountsBids_then_itsWindowsKeepATypedAccumulator() {
    assertTyped(AccumulatedTypes.of(null, new Query16.Report(), "q16"));
  }

  @Test
  void when_q8JoinsPersonsAndSellers_then_itsWindowsKeepTypedRecords() {
    // given: the job graph of q8, whose join window is the last window operator
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    new Query8().apply(env.fromCollection(List.<Event>of())).print();
    OperatorSpec.Window join =
        env.plan("q8").transformations().stream()
            .map(Transformation::spec)
            .filter(OperatorSpec.Window.class::isInstance)
            .map(OperatorSpec.Window.class::cast)
            .reduce((earlier, later) -> later)
            .orElseThrow();

    // then
    assertTyped(AccumulatedTypes.of(null, null, join.windowFunction(), "q8"));
  }

  @Test
  void when_bidCountsAreWrittenFieldByField_then_theyReadBackToTheSameRows() {
    // given: bids of one day in each price range, with repeated bidders and auctions
    BidCounts counts = new BidCounts();
    long noon = 43_200_000L;
    long[] prices = {50, 9_999, 10_000, 999_999, 1_000_000, 5_000_000, 70};
    for (int index = 0; index < prices.length; index++) {
      counts.add(
          new Bid(100 + index % 2, 1000 + index % 3, prices[index], "Apple", "", noon + index, ""));
    }
    TypeSerializer<BidCounts> serializer = TypeSerializer.of(BidCounts.class);

    // when
    BidCounts read = serializer.deserialize(serializer.serialize(counts));

    // then
    assertThat(read.dailyBidding()).isEqualTo(counts.dailyBidding());
    assertThat(read.channelBidding("Apple")).isEqualTo(counts.channelBidding("Apple"));
    assertThat(read.dailyBidding().totalBids()).isEqualTo(7);
  }

  private static void assertTyped(AccumulatedTypes.Serializers serializers) {
    assertThat(serializers.untyped()).isNull();
    assertThat(serializers.typed()).isNotNull();
  }
}
