package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/** q1: every bid with its price converted from dollars to euros (a map). */
public final class Query1 implements NexmarkQuery<Bid> {
  @Override
  public String name() {
    return "q1";
  }

  @Override
  public String description() {
    return "currency conversion: every bid, its price in euro cents";
  }

  @Override
  public DataStream<Bid> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .map(
            bid ->
                new Bid(
                    bid.auction(),
                    bid.bidder(),
                    EventStreams.euros(bid.price()),
                    bid.channel(),
                    bid.url(),
                    bid.dateTime(),
                    bid.extra()))
        .name("Euros");
  }

  @Override
  public String sql() {
    return "SELECT auction, bidder, "
        + EventStreams.eurosSql("price")
        + " AS price, channel, url, dateTime, extra FROM bid";
  }
}
