package io.weir.nexmark.flink;

import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;
import io.weir.nexmark.queries.Query20;
import io.weir.nexmark.queries.Query20.BidWithAuction;
import io.weir.nexmark.queries.Query3;
import io.weir.nexmark.queries.Query3.LocalItem;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The incremental joins: q3 (persons with their auctions, by seller) and q20 (bids with their
 * auction), each a keyed co-process function as Weir's q3 and q20 are.
 */
final class JoinQueries {
  private JoinQueries() {}

  static DataStream<LocalItem> localItems(DataStream<Event> events) {
    DataStream<Auction> auctions =
        SelectionQueries.auctions(events)
            .filter(auction -> auction.category() == Query3.CATEGORY)
            .name("Category 10");
    return SelectionQueries.persons(events)
        .connect(auctions)
        .keyBy(Person::id, Auction::seller, Types.LONG)
        .process(
            new OneToManyJoin<Long, Person, Auction, LocalItem>(
                Query3::localItem, Person.class, Auction.class))
        .returns(LocalItem.class)
        .name("Seller of auction")
        .filter(item -> Query3.STATES.contains(item.state()))
        .name("Local sellers");
  }

  static DataStream<BidWithAuction> bidsWithAuction(DataStream<Event> events) {
    return SelectionQueries.auctions(events)
        .connect(SelectionQueries.bids(events))
        .keyBy(Auction::id, Bid::auction, Types.LONG)
        .process(
            new OneToManyJoin<Long, Auction, Bid, BidWithAuction>(
                Query20::expand, Auction.class, Bid.class))
        .returns(BidWithAuction.class)
        .name("Bid with auction")
        .filter(bid -> bid.category() == Query20.CATEGORY)
        .name("Category 10");
  }
}
