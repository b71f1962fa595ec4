package io.weir.nexmark.queries;

import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.TimeWindow;

/** A bidder's number of bids in one window (a session or a tumbling window): q11 and q12. */
public record BidderCount(long bidder, long bidCount, long windowStart, long windowEnd) {
  /** Labels a window's count with its bidder and bounds. */
  static final class OfWindow extends ProcessWindowFunction<Long, BidderCount, Long, TimeWindow> {
    @Override
    public void process(
        Long bidder,
        Context<TimeWindow> context,
        Iterable<Long> counts,
        Collector<BidderCount> out) {
      for (long count : counts) {
        out.collect(
            new BidderCount(bidder, count, context.window().start(), context.window().end()));
      }
    }
  }
}
