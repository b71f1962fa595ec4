package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.time.Duration;

/**
 * q12: the number of bids of each bidder in ten-second tumbling windows. The published query
 * windows by processing time, whose result depends on when the job happened to run and so cannot be
 * compared with SQL; Weir runs the deterministic equivalent in event time (windows aligned to the
 * epoch), which the check compares row for row.
 */
public final class Query12 implements NexmarkQuery<BidderCount> {
  public static final Duration WINDOW = Duration.ofSeconds(10);

  @Override
  public String name() {
    return "q12";
  }

  @Override
  public String description() {
    return "bids per bidder in 10-second tumbling windows (event time for processing time)";
  }

  @Override
  public DataStream<BidderCount> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .keyBy(Bid::bidder)
        .window(TumblingEventTimeWindows.of(WINDOW))
        .aggregate(new CountRecords<>(), new BidderCount.OfWindow())
        .name("Bids per window");
  }

  @Override
  public String sql() {
    long size = WINDOW.toMillis();
    return "SELECT bidder, count(*) AS bidCount, dateTime // "
        + size
        + " * "
        + size
        + " AS windowStart, dateTime // "
        + size
        + " * "
        + size
        + " + "
        + size
        + " AS windowEnd FROM bid GROUP BY bidder, windowStart, windowEnd";
  }
}
