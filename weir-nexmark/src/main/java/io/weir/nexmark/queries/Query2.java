package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Event;

/** q2: the bids on a few auctions, chosen by their id (a filter). */
public final class Query2 implements NexmarkQuery<Query2.AuctionPrice> {
  /** Auctions whose id is a multiple of this are selected. */
  static final long AUCTION_ID_MODULUS = 123;

  public record AuctionPrice(long auction, long price) {}

  @Override
  public String name() {
    return "q2";
  }

  @Override
  public String description() {
    return "selection: auction and price of the bids on auctions whose id is a multiple of 123";
  }

  @Override
  public DataStream<AuctionPrice> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .filter(bid -> bid.auction() % AUCTION_ID_MODULUS == 0)
        .name("Selected auctions")
        .map(bid -> new AuctionPrice(bid.auction(), bid.price()))
        .name("Auction and price");
  }

  @Override
  public String sql() {
    return "SELECT auction, price FROM bid WHERE auction % " + AUCTION_ID_MODULUS + " = 0";
  }
}
