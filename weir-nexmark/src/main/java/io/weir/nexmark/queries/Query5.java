package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.SlidingEventTimeWindows;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * q5: hot items, the auctions with the most bids in each sliding window of ten seconds of event
 * time that starts every two seconds (windows aligned to the epoch). Every auction at the top count
 * comes out, so ties need no order.
 *
 * <p>Two steps: bids counted per auction and window; then the counts of each window, which all
 * carry the window's last millisecond as timestamp, keyed by the window's start and gathered by a
 * tumbling window of one slide, which holds exactly them.
 */
public final class Query5 implements NexmarkQuery<Query5.HotItem> {
  public static final Duration WINDOW = Duration.ofSeconds(10);
  public static final Duration SLIDE = Duration.ofSeconds(2);

  /** Serializable for the heap's checkpoints, which write open windows by Java serialization. */
  public record HotItem(long auction, long bidCount, long windowStart) implements Serializable {}

  @Override
  public String name() {
    return "q5";
  }

  @Override
  public String description() {
    return "hot items: the auctions with the most bids in each 10-second window every 2 seconds";
  }

  @Override
  public DataStream<HotItem> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .keyBy(Bid::auction)
        .window(SlidingEventTimeWindows.of(WINDOW, SLIDE))
        .aggregate(new CountRecords<>(), new AuctionCount())
        .name("Bids per auction")
        .keyBy(HotItem::windowStart)
        .window(TumblingEventTimeWindows.of(SLIDE))
        .aggregate(new MostBids())
        .name("Most bids")
        .<HotItem>flatMap(
            (items, out) -> {
              for (HotItem item : items) {
                out.collect(item);
              }
            })
        .name("Each hot item");
  }

  @Override
  public String sql() {
    long size = WINDOW.toMillis();
    long slide = SLIDE.toMillis();
    long windows = size / slide;
    String counts =
        "SELECT auction, (dateTime // "
            + slide
            + " - k) * "
            + slide
            + " AS windowStart, count(*) AS bidCount FROM bid CROSS JOIN range("
            + windows
            + ") AS windows(k) GROUP BY auction, windowStart";
    return "WITH counts AS ("
        + counts
        + ") SELECT c.auction, c.bidCount, c.windowStart FROM counts c JOIN"
        + " (SELECT windowStart, max(bidCount) AS bidCount FROM counts GROUP BY windowStart) top"
        + " ON c.windowStart = top.windowStart AND c.bidCount = top.bidCount";
  }

  /** An auction's count with its window's start. */
  static final class AuctionCount extends ProcessWindowFunction<Long, HotItem, Long, TimeWindow> {
    @Override
    public void process(
        Long auction, Context<TimeWindow> context, Iterable<Long> counts, Collector<HotItem> out) {
      for (long count : counts) {
        out.collect(new HotItem(auction, count, context.window().start()));
      }
    }
  }

  /** The counts of one window at the highest count seen so far. */
  static final class MostBids
      implements AggregateFunction<HotItem, MostBids.Accumulator, List<HotItem>> {
    /**
     * A POJO, so that state kept serialized (RocksDB) writes it field by field; it stays {@link
     * Serializable} for the heap's checkpoints.
     */
    public static final class Accumulator implements Serializable {
      public long bidCount = Long.MIN_VALUE;
      public ArrayList<HotItem> items = new ArrayList<>();

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
