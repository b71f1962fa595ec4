package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;
import java.time.Duration;

/**
 * q8: monitor new users, the persons who opened an auction in the same ten-second window of event
 * time in which they joined (windows aligned to the epoch), once per person. A tumbling window
 * first keeps one auction per seller and window, so the window join of persons and sellers pairs
 * each person at most once.
 */
public final class Query8 implements NexmarkQuery<Query8.NewSeller> {
  public static final Duration WINDOW = Duration.ofSeconds(10);

  public record NewSeller(long id, String name, long windowStart) {}

  @Override
  public String name() {
    return "q8";
  }

  @Override
  public String description() {
    return "monitor new users: persons who opened an auction in the 10-second window they joined";
  }

  @Override
  public DataStream<NewSeller> apply(DataStream<Event> events) {
    DataStream<Auction> sellers =
        EventStreams.auctions(events)
            .keyBy(Auction::seller)
            .window(TumblingEventTimeWindows.of(WINDOW))
            .reduce(new FirstAuction())
            .returns(Auction.class)
            .name("One auction per seller");
    long size = WINDOW.toMillis();
    // Both inputs declare their record classes so that the join keeps its windows' records field by
    // field (on RocksDB, read and written with each record), not by Java serialization.
    return EventStreams.persons(events)
        .returns(Person.class)
        .join(sellers)
        .where(Person::id)
        .equalTo(Auction::seller)
        .window(TumblingEventTimeWindows.of(WINDOW))
        .apply(
            (person, auction) ->
                new NewSeller(
                    person.id(), person.name(), Math.floorDiv(person.dateTime(), size) * size))
        .name("New sellers");
  }

  /**
   * Keeps a seller's first auction of the window. A class, not a lambda, so that the window reads
   * its record type from the declaration and keeps the auctions field by field, not by Java
   * serialization (on RocksDB, read and written with each record).
   */
  static final class FirstAuction implements ReduceFunction<Auction> {
    @Override
    public Auction reduce(Auction first, Auction second) {
      return first;
    }
  }

  @Override
  public String sql() {
    long size = WINDOW.toMillis();
    return "SELECT DISTINCT p.id, p.name, p.dateTime // "
        + size
        + " * "
        + size
        + " AS windowStart FROM person p JOIN auction a ON a.seller = p.id AND a.dateTime // "
        + size
        + " = p.dateTime // "
        + size;
  }
}
