package io.weir.nexmark.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.queries.BidCounts;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * Flink's q15 and q16 keep Weir's {@link BidCounts}: Flink takes it as a POJO and keeps it whole.
 */
class BidCountsTypeTest {
  @Test
  void when_flinkSerializesBidCounts_then_itUsesItsPojoSerializerAndReadsTheSameRows()
      throws Exception {
    // given: bids of one day in each price range, with repeated bidders and auctions
    BidCounts counts = new BidCounts();
    long noon = 43_200_000L;
    long[] prices = {50, 9_999, 10_000, 999_999, 1_000_000, 5_000_000, 70};
    for (int index = 0; index < prices.length; index++) {
      counts.add(
          new Bid(100 + index % 2, 1000 + index % 3, prices[index], "Apple", "", noon + index, ""));
    }
    TypeInformation<BidCounts> type = TypeInformation.of(BidCounts.class);
    TypeSerializer<BidCounts> serializer = type.createSerializer(new SerializerConfigImpl());

    // when
    DataOutputSerializer out = new DataOutputSerializer(256);
    serializer.serialize(counts, out);
    BidCounts read = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));

    // then
    assertThat(type).isInstanceOf(PojoTypeInfo.class);
    assertThat(read.dailyBidding()).isEqualTo(counts.dailyBidding());
    assertThat(read.channelBidding("Apple")).isEqualTo(counts.channelBidding("Apple"));
    assertThat(read.dailyBidding().totalBids()).isEqualTo(7);
  }
}
