package io.weir.nexmark.flink;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.Query5;
import io.weir.nexmark.queries.Query5.HotItem;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * q5: the auctions with the most bids in each sliding window, in Weir's q5's two steps: bids
 * counted per auction and sliding window; then each window's counts (all timestamped with the
 * window's last millisecond) keyed by the window's start and gathered by a tumbling window of one
 * slide, which keeps those at the top count.
 */
final class HotItemsQuery {
  private HotItemsQuery() {}

  static DataStream<HotItem> apply(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(Bid::auction, Types.LONG)
        .window(SlidingEventTimeWindows.of(Query5.WINDOW, Query5.SLIDE))
        .aggregate(
            new CountRecords<>(),
            new AuctionCount(),
            Types.LONG,
            Types.LONG,
            TypeInformation.of(HotItem.class))
        .name("Bids per auction")
        .keyBy(HotItem::windowStart, Types.LONG)
        .window(TumblingEventTimeWindows.of(Query5.SLIDE))
        .aggregate(
            new MostBids(),
            TypeInformation.of(new TypeHint<Accumulator>() {}),
            TypeInformation.of(new TypeHint<List<HotItem>>() {}))
        .name("Most bids")
        .<HotItem>flatMap(
            (items, out) -> {
              for (HotItem item : items) {
                out.collect(item);
              }
            })
        .returns(HotItem.class)
        .name("Each hot item");
  }

  /** An auction's count with its window's start. */
  static final class AuctionCount extends ProcessWindowFunction<Long, HotItem, Long, TimeWindow> {
    @Override
    public void process(
        Long auction, Context context, Iterable<Long> counts, Collector<HotItem> out) {
      for (long count : counts) {
        out.collect(new HotItem(auction, count, context.window().getStart()));
      }
    }
  }

  /** The counts of one window at the highest count seen so far. */
  static final class Accumulator {
    long bidCount = Long.MIN_VALUE;
    final ArrayList<HotItem> items = new ArrayList<>();

    void offer(HotItem item) {
      if (item.bidCount() > bidCount) {
        bidCount = item.bidCount();
        items.clear();
      }
      if (item.bidCount() == bidCount) {
        items.add(item);
      }
    }
  }

  static final class MostBids implements AggregateFunction<HotItem, Accumulator, List<HotItem>> {
    @Override
    public Accumulator createAccumulator() {
      return new Accumulator();
    }

    @Override
    public Accumulator add(HotItem item, Accumulator accumulator) {
      accumulator.offer(item);
      return accumulator;
    }

    @Override
    public List<HotItem> getResult(Accumulator accumulator) {
      return List.copyOf(accumulator.items);
    }

    @Override
    public Accumulator merge(Accumulator a, Accumulator b) {
      b.items.forEach(a::offer);
      return a;
    }
  }
}
