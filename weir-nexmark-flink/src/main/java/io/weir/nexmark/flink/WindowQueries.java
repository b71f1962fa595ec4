package io.weir.nexmark.flink;

import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;
import io.weir.nexmark.queries.BidderCount;
import io.weir.nexmark.queries.Query11;
import io.weir.nexmark.queries.Query12;
import io.weir.nexmark.queries.Query8;
import io.weir.nexmark.queries.Query8.NewSeller;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The window queries with Flink's own windows: q8 (a window join), q11 (session windows) and q12
 * (tumbling windows in event time), each with the window alignment and bounds of its Weir
 * counterpart (windows aligned to the epoch; a session from its first bid to the gap after its
 * last, bids exactly the gap apart in one session, as Flink's session windows merge them too).
 */
final class WindowQueries {
  private WindowQueries() {}

  static DataStream<NewSeller> newSellers(DataStream<Event> events) {
    DataStream<Auction> sellers =
        SelectionQueries.auctions(events)
            .keyBy(Auction::seller, Types.LONG)
            .window(TumblingEventTimeWindows.of(Query8.WINDOW))
            .reduce((first, second) -> first)
            .name("One auction per seller");
    long size = Query8.WINDOW.toMillis();
    return SelectionQueries.persons(events)
        .join(sellers)
        .where(Person::id, Types.LONG)
        .equalTo(Auction::seller)
        .window(TumblingEventTimeWindows.of(Query8.WINDOW))
        .apply(
            (person, auction) ->
                new NewSeller(
                    person.id(), person.name(), Math.floorDiv(person.dateTime(), size) * size),
            TypeInformation.of(NewSeller.class))
        .name("New sellers");
  }

  static DataStream<BidderCount> bidderSessions(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(Bid::bidder, Types.LONG)
        .window(EventTimeSessionWindows.withGap(Query11.GAP))
        .aggregate(
            new CountRecords<>(),
            new OfWindow(),
            Types.LONG,
            Types.LONG,
            TypeInformation.of(BidderCount.class))
        .name("Bids per session");
  }

  static DataStream<BidderCount> bidderWindows(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(Bid::bidder, Types.LONG)
        .window(TumblingEventTimeWindows.of(Query12.WINDOW))
        .aggregate(
            new CountRecords<>(),
            new OfWindow(),
            Types.LONG,
            Types.LONG,
            TypeInformation.of(BidderCount.class))
        .name("Bids per window");
  }

  /** Labels a window's count with its bidder and bounds. */
  static final class OfWindow extends ProcessWindowFunction<Long, BidderCount, Long, TimeWindow> {
    @Override
    public void process(
        Long bidder, Context context, Iterable<Long> counts, Collector<BidderCount> out) {
      for (long count : counts) {
        out.collect(
            new BidderCount(bidder, count, context.window().getStart(), context.window().getEnd()));
      }
    }
  }
}
