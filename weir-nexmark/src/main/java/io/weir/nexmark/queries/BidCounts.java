package io.weir.nexmark.queries;

import io.weir.nexmark.model.Bid;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;

/**
 * Counts of one day's bids by price range (below 100, below 10,000, from 10,000 dollars), with the
 * distinct bidders and auctions of each range and the day's last minute of bidding: the accumulator
 * of q15 and q16. A day is a tumbling window, so every bid added has the same day, taken from its
 * event time. Public for the Flink versions of q15 and q16, which aggregate with it too.
 */
public final class BidCounts implements Serializable {
  public static final Duration DAY = Duration.ofDays(1);
  static final long LOW_PRICE = 10_000;
  static final long HIGH_PRICE = 1_000_000;
  static final int RANGES = 3;

  long dayStart;
  String lastMinute = "";
  final long[] bids = new long[RANGES];
  final Set<Long> bidders = new HashSet<>();
  final Set<Long> auctions = new HashSet<>();
  final Set<Long>[] biddersInRange = sets();
  final Set<Long>[] auctionsInRange = sets();

  /** Adds a bid of this accumulator's day. */
  public void add(Bid bid) {
    dayStart = Math.floorDiv(bid.dateTime(), DAY.toMillis()) * DAY.toMillis();
    String minute = time(bid.dateTime()).substring(0, 5);
    if (minute.compareTo(lastMinute) > 0) {
      lastMinute = minute;
    }
    int range = bid.price() < LOW_PRICE ? 0 : bid.price() < HIGH_PRICE ? 1 : 2;
    bids[range]++;
    bidders.add(bid.bidder());
    auctions.add(bid.auction());
    biddersInRange[range].add(bid.bidder());
    auctionsInRange[range].add(bid.auction());
  }

  /** Adds the counts of another part of the same day. */
  public void addAll(BidCounts other) {
    if (other.lastMinute.compareTo(lastMinute) > 0) {
      lastMinute = other.lastMinute;
      dayStart = other.dayStart;
    }
    for (int range = 0; range < RANGES; range++) {
      bids[range] += other.bids[range];
      biddersInRange[range].addAll(other.biddersInRange[range]);
      auctionsInRange[range].addAll(other.auctionsInRange[range]);
    }
    bidders.addAll(other.bidders);
    auctions.addAll(other.auctions);
  }

  /** q15's row of these counts. */
  public Query15.DailyBidding dailyBidding() {
    return new Query15.DailyBidding(
        day(),
        totalBids(),
        bids[0],
        bids[1],
        bids[2],
        bidders.size(),
        biddersInRange[0].size(),
        biddersInRange[1].size(),
        biddersInRange[2].size(),
        auctions.size(),
        auctionsInRange[0].size(),
        auctionsInRange[1].size(),
        auctionsInRange[2].size());
  }

  /** q16's row of these counts, the counts of {@code channel}. */
  public Query16.ChannelBidding channelBidding(String channel) {
    return new Query16.ChannelBidding(
        channel,
        day(),
        lastMinute,
        totalBids(),
        bids[0],
        bids[1],
        bids[2],
        bidders.size(),
        biddersInRange[0].size(),
        biddersInRange[1].size(),
        biddersInRange[2].size(),
        auctions.size(),
        auctionsInRange[0].size(),
        auctionsInRange[1].size(),
        auctionsInRange[2].size());
  }

  private String day() {
    return Instant.ofEpochMilli(dayStart).atOffset(ZoneOffset.UTC).toLocalDate().toString();
  }

  private long totalBids() {
    return bids[0] + bids[1] + bids[2];
  }

  private static String time(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).atOffset(ZoneOffset.UTC).toLocalTime().toString();
  }

  @SuppressWarnings("unchecked")
  private static Set<Long>[] sets() {
    Set<Long>[] sets = new Set[RANGES];
    for (int range = 0; range < RANGES; range++) {
      sets[range] = new HashSet<>();
    }
    return sets;
  }

  /** The SQL of the counts, after the grouping columns: the same twelve columns as the records. */
  static String countsSql() {
    String[] ranges = {
      "price < " + LOW_PRICE,
      "price >= " + LOW_PRICE + " AND price < " + HIGH_PRICE,
      "price >= " + HIGH_PRICE
    };
    StringBuilder sql = new StringBuilder("count(*) AS totalBids");
    for (int range = 0; range < RANGES; range++) {
      sql.append(", count(*) FILTER (WHERE ").append(ranges[range]).append(") AS rank");
      sql.append(range + 1).append("Bids");
    }
    sql.append(", count(DISTINCT bidder) AS totalBidders");
    for (int range = 0; range < RANGES; range++) {
      sql.append(", count(DISTINCT bidder) FILTER (WHERE ").append(ranges[range]);
      sql.append(") AS rank").append(range + 1).append("Bidders");
    }
    sql.append(", count(DISTINCT auction) AS totalAuctions");
    for (int range = 0; range < RANGES; range++) {
      sql.append(", count(DISTINCT auction) FILTER (WHERE ").append(ranges[range]);
      sql.append(") AS rank").append(range + 1).append("Auctions");
    }
    return sql.toString();
  }
}
