package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;
import java.util.Set;

/**
 * q3: local item suggestion, the sellers in Oregon, Idaho or California of auctions in category 10,
 * with each such auction (an incremental join of persons and auctions on the seller). Every person
 * is kept in keyed state, since an auction may come any time after its seller joined; auctions that
 * arrive before their seller wait for it.
 */
public final class Query3 implements NexmarkQuery<Query3.LocalItem> {
  public static final long CATEGORY = 10;
  public static final Set<String> STATES = Set.of("OR", "ID", "CA");

  public record LocalItem(String name, String city, String state, long auction) {}

  @Override
  public String name() {
    return "q3";
  }

  @Override
  public String description() {
    return "local item suggestion: sellers in OR, ID or CA with their auctions in category 10";
  }

  @Override
  public DataStream<LocalItem> apply(DataStream<Event> events) {
    DataStream<Auction> auctions =
        EventStreams.auctions(events)
            .filter(auction -> auction.category() == CATEGORY)
            .name("Category 10");
    return EventStreams.persons(events)
        .connect(auctions)
        .keyBy(Person::id, Auction::seller)
        .process(
            new OneToManyJoin<Long, Person, Auction, LocalItem>(
                EventSerializers.PERSON, EventSerializers.AUCTION, Query3::localItem))
        .name("Seller of auction")
        .filter(item -> STATES.contains(item.state()))
        .name("Local sellers");
  }

  /** The row of a seller and one of its auctions. */
  public static LocalItem localItem(Person seller, Auction auction) {
    return new LocalItem(seller.name(), seller.city(), seller.state(), auction.id());
  }

  @Override
  public String sql() {
    return "SELECT p.name, p.city, p.state, a.id AS auction FROM auction a"
        + " JOIN person p ON a.seller = p.id WHERE a.category = "
        + CATEGORY
        + " AND p.state IN ('OR', 'ID', 'CA')";
  }
}
