package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/**
 * q20: expand bid with auction, every bid on an auction of category 10 with the auction's fields
 * (an incremental join of bids and auctions on the auction id). Every auction is kept in keyed
 * state, since bids on it may come any time; bids that arrive before their auction wait for it.
 */
public final class Query20 implements NexmarkQuery<Query20.BidWithAuction> {
  public static final long CATEGORY = 10;

  public record BidWithAuction(
      long auction,
      long bidder,
      long price,
      String channel,
      long dateTime,
      String itemName,
      long initialBid,
      long reserve,
      long auctionDateTime,
      long expires,
      long seller,
      long category) {}

  @Override
  public String name() {
    return "q20";
  }

  @Override
  public String description() {
    return "expand bid with auction: bids on auctions of category 10 with the auction's fields";
  }

  @Override
  public DataStream<BidWithAuction> apply(DataStream<Event> events) {
    return EventStreams.auctions(events)
        .connect(EventStreams.bids(events))
        .keyBy(Auction::id, Bid::auction)
        .process(
            new OneToManyJoin<Long, Auction, Bid, BidWithAuction>(
                EventSerializers.AUCTION, EventSerializers.BID, Query20::expand))
        .name("Bid with auction")
        .filter(bid -> bid.category() == CATEGORY)
        .name("Category 10");
  }

  @Override
  public String sql() {
    return "SELECT b.auction, b.bidder, b.price, b.channel, b.dateTime, a.itemName, a.initialBid,"
        + " a.reserve, a.dateTime AS auctionDateTime, a.expires, a.seller, a.category"
        + " FROM bid b JOIN auction a ON b.auction = a.id WHERE a.category = "
        + CATEGORY;
  }

  /** The row of a bid and its auction. */
  public static BidWithAuction expand(Auction auction, Bid bid) {
    return new BidWithAuction(
        bid.auction(),
        bid.bidder(),
        bid.price(),
        bid.channel(),
        bid.dateTime(),
        auction.itemName(),
        auction.initialBid(),
        auction.reserve(),
        auction.dateTime(),
        auction.expires(),
        auction.seller(),
        auction.category());
  }
}
