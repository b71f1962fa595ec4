package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/**
 * q9: winning bids, each auction with its highest bid placed while it was open (from its opening to
 * its expiry, both inclusive), emitted when it expires. Ties at the highest price go to the earlier
 * bid, then as {@link BidOrder#HIGHEST_PRICE_FIRST} says; the reserve is not applied, as in Flink's
 * Nexmark suite.
 */
public final class Query9 implements NexmarkQuery<Query9.AuctionWinner> {
  public record AuctionWinner(
      long id,
      String itemName,
      long initialBid,
      long reserve,
      long dateTime,
      long expires,
      long seller,
      long category,
      long bidder,
      long price,
      long bidDateTime) {}

  @Override
  public String name() {
    return "q9";
  }

  @Override
  public String description() {
    return "winning bids: each auction with its highest bid placed while it was open";
  }

  @Override
  public DataStream<AuctionWinner> apply(DataStream<Event> events) {
    return WinningBids.of(events)
        .map(winner -> winner(winner.auction(), winner.bid()))
        .name("Auction winner");
  }

  /** The row of an auction and its winning bid. */
  public static AuctionWinner winner(Auction auction, Bid bid) {
    return new AuctionWinner(
        auction.id(),
        auction.itemName(),
        auction.initialBid(),
        auction.reserve(),
        auction.dateTime(),
        auction.expires(),
        auction.seller(),
        auction.category(),
        bid.bidder(),
        bid.price(),
        bid.dateTime());
  }

  @Override
  public String sql() {
    return WinningBids.sql();
  }
}
