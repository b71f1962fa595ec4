package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.windowing.EventTimeSessionWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.time.Duration;

/**
 * q11: user sessions, the number of bids of each bidder's sessions of event time; a session ends
 * when the bidder bids for more than ten seconds no more. Bids exactly ten seconds apart are in one
 * session; a session runs from its first bid to ten seconds after its last.
 */
public final class Query11 implements NexmarkQuery<BidderCount> {
  public static final Duration GAP = Duration.ofSeconds(10);

  @Override
  public String name() {
    return "q11";
  }

  @Override
  public String description() {
    return "user sessions: bids per bidder session, sessions ending after 10 seconds without bids";
  }

  @Override
  public DataStream<BidderCount> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .keyBy(Bid::bidder)
        .window(EventTimeSessionWindows.withGap(GAP))
        .aggregate(new CountRecords<>(), new BidderCount.OfWindow())
        .name("Bids per session");
  }

  @Override
  public String sql() {
    long gap = GAP.toMillis();
    // A bid starts a session when the bidder's previous bid is more than the gap before it; the
    // running sum over peers (RANGE, the default frame) numbers the sessions, equal times alike.
    return "WITH starts AS (SELECT bidder, dateTime, CASE WHEN dateTime - lag(dateTime) OVER"
        + " (PARTITION BY bidder ORDER BY dateTime) <= "
        + gap
        + " THEN 0 ELSE 1 END AS isStart FROM bid), sessions AS (SELECT bidder, dateTime,"
        + " sum(isStart) OVER (PARTITION BY bidder ORDER BY dateTime) AS session FROM starts)"
        + " SELECT bidder, count(*) AS bidCount, min(dateTime) AS windowStart, max(dateTime) + "
        + gap
        + " AS windowEnd FROM sessions GROUP BY bidder, session";
  }
}
