package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * q7: the highest bids of each ten-second window of event time (windows aligned to the epoch).
 * Every bid of the window that has the highest price comes out, so ties need no order.
 */
public final class Query7 implements NexmarkQuery<Query7.HighestBid> {
  static final Duration WINDOW = Duration.ofSeconds(10);

  public record HighestBid(long auction, long price, long bidder, long dateTime, String extra) {}

  @Override
  public String name() {
    return "q7";
  }

  @Override
  public String description() {
    return "highest bid: the bids at the highest price of each 10-second tumbling window";
  }

  @Override
  public DataStream<HighestBid> apply(DataStream<Event> events) {
    // One window over all bids: a constant key puts them in one keyed window.
    return EventStreams.bids(events)
        .keyBy(bid -> 0)
        .window(TumblingEventTimeWindows.of(WINDOW))
        .aggregate(new HighestBids())
        .name("Highest bids")
        .<HighestBid>flatMap(
            (bids, out) -> {
              for (Bid bid : bids) {
                out.collect(
                    new HighestBid(
                        bid.auction(), bid.price(), bid.bidder(), bid.dateTime(), bid.extra()));
              }
            })
        .name("Each highest bid");
  }

  @Override
  public String sql() {
    long size = WINDOW.toMillis();
    return "SELECT b.auction, b.price, b.bidder, b.dateTime, b.extra FROM bid b JOIN"
        + " (SELECT dateTime // "
        + size
        + " AS windowIndex, max(price) AS price FROM bid GROUP BY windowIndex) highest"
        + " ON b.dateTime // "
        + size
        + " = highest.windowIndex AND b.price = highest.price";
  }

  /** The bids at the highest price seen so far in one window. */
  static final class HighestBids
      implements AggregateFunction<Bid, HighestBids.Accumulator, List<Bid>> {
    /**
     * A POJO, so that state kept serialized (RocksDB) writes it field by field; it stays {@link
     * Serializable} for the heap's checkpoints.
     */
    public static final class Accumulator implements Serializable {
      public long price = Long.MIN_VALUE;
      public ArrayList<Bid> bids = new ArrayList<>();

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
