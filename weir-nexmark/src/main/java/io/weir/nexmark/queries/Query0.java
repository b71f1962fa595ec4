package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/** q0: every bid passes through unchanged, which measures reading, decoding and writing alone. */
public final class Query0 implements NexmarkQuery<Bid> {
  @Override
  public String name() {
    return "q0";
  }

  @Override
  public String description() {
    return "pass-through: every bid, unchanged";
  }

  @Override
  public DataStream<Bid> apply(DataStream<Event> events) {
    return EventStreams.bids(events);
  }

  @Override
  public String sql() {
    return "SELECT auction, bidder, price, channel, url, dateTime, extra FROM bid";
  }
}
