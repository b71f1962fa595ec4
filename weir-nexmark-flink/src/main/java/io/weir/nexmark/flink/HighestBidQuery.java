package io.weir.nexmark.flink;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.Query7.HighestBid;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/**
 * q7: every bid at the highest price of its ten-second window of event time, as Weir's q7 (one
 * window over all bids, so one subtask holds it in both engines).
 */
final class HighestBidQuery {
  private static final Duration WINDOW = Duration.ofSeconds(10);

  private HighestBidQuery() {}

  static DataStream<HighestBid> apply(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .windowAll(TumblingEventTimeWindows.of(WINDOW))
        .aggregate(new HighestBids(), TypeInformation.of(new TypeHint<Accumulator>() {}), bidList())
        .name("Highest bids")
        .<HighestBid>flatMap(
            (bids, out) -> {
              for (Bid bid : bids) {
                out.collect(
                    new HighestBid(
                        bid.auction(), bid.price(), bid.bidder(), bid.dateTime(), bid.extra()));
              }
            })
        .returns(HighestBid.class)
        .name("Each highest bid");
  }

  private static TypeInformation<List<Bid>> bidList() {
    return TypeInformation.of(new TypeHint<List<Bid>>() {});
  }

  /** The bids at the highest price seen so far in one window. */
  static final class Accumulator {
    long price = Long.MIN_VALUE;
    final ArrayList<Bid> bids = new ArrayList<>();

    void offer(Bid bid) {
      if (bid.price() > price) {
        price = bid.price();
        bids.clear();
      }
      if (bid.price() == price) {
        bids.add(bid);
      }
    }
  }

  static final class HighestBids implements AggregateFunction<Bid, Accumulator, List<Bid>> {
    @Override
    public Accumulator createAccumulator() {
      return new Accumulator();
    }

    @Override
    public Accumulator add(Bid bid, Accumulator accumulator) {
      accumulator.offer(bid);
      return accumulator;
    }

    @Override
    public List<Bid> getResult(Accumulator accumulator) {
      return List.copyOf(accumulator.bids);
    }

    @Override
    public Accumulator merge(Accumulator a, Accumulator b) {
      b.bids.forEach(a::offer);
      return a;
    }
  }
}
