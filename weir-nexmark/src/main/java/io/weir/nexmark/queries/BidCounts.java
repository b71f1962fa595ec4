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
 *
 * <p>A POJO (public, non-final fields; sets of longs, no arrays), so that state kept serialized
 * (RocksDB) writes it field by field on every bid, and Flink picks its POJO serializer for it; it
 * stays {@link Serializable} for the heap's checkpoints.
 */
public final class BidCounts implements Serializable {
  public static final Duration DAY = Duration.ofDays(1);
  static final long LOW_PRICE = 10_000;
  static final long HIGH_PRICE = 1_000_000;
  static final int RANGES = 3;

  /** The bids of one price range, with their distinct bidders and auctions. */
  public static final class PriceRange implements Serializable {
    public long bids;
    public Set<Long> bidders = new HashSet<>();
    public Set<Long> auctions = new HashSet<>();

    void add(Bid bid) {
      bids++;
      bidders.add(bid.bidder());
      auctions.add(bid.auction());
    }

    void addAll(PriceRange other) {
      bids += other.bids;
      bidders.addAll(other.bidders);
      auctions.addAll(other.auctions);
    }
  }

  public long dayStart;
  public String lastMinute = "";
  public Set<Long> bidders = new HashSet<>();
  public Set<Long> auctions = new HashSet<>();
  public PriceRange low = new PriceRange();
  public PriceRange middle = new PriceRange();
  public PriceRange high = new PriceRange();

  /** Adds a bid of this accumulator's day. */
  public void add(Bid bid) {
    dayStart = Math.floorDiv(bid.dateTime(), DAY.toMillis()) * DAY.toMillis();
    String minute = time(bid.dateTime()).substring(0, 5);
    if (minute.compareTo(lastMinute) > 0) {
      lastMinute = minute;
    }
    PriceRange range = bid.price() < LOW_PRICE ? low : bid.price() < HIGH_PRICE ? middle : high;
    range.add(bid);
    bidders.add(bid.bidder());
    auctions.add(bid.auction());
  }

  /** Adds the counts of another part of the same day. */
  public void addAll(BidCounts other) {
    if (other.lastMinute.compareTo(lastMinute) > 0) {
      lastMinute = other.lastMinute;
      dayStart = other.dayStart;
    }
    low.addAll(other.low);
    middle.addAll(other.middle);
    high.addAll(other.high);
    bidders.addAll(other.bidders);
    auctions.addAll(other.auctions);
  }

  /** q15's row of these counts. */
  public Query15.DailyBidding dailyBidding() {
    return new Query15.DailyBidding(
        day(),
        totalBids(),
        low.bids,
        middle.bids,
        high.bids,
        bidders.size(),
        low.bidders.size(),
        middle.bidders.size(),
        high.bidders.size(),
        auctions.size(),
        low.auctions.size(),
        middle.auctions.size(),
        high.auctions.size());
  }

  /** q16's row of these counts, the counts of {@code channel}. */
  public Query16.ChannelBidding channelBidding(String channel) {
    return new Query16.ChannelBidding(
        channel,
        day(),
        lastMinute,
        totalBids(),
        low.bids,
        middle.bids,
        high.bids,
        bidders.size(),
        low.bidders.size(),
        middle.bidders.size(),
        high.bidders.size(),
        auctions.size(),
        low.auctions.size(),
        middle.auctions.size(),
        high.auctions.size());
  }

  private String day() {
    return Instant.ofEpochMilli(dayStart).atOffset(ZoneOffset.UTC).toLocalDate().toString();
  }

  private long totalBids() {
    return low.bids + middle.bids + high.bids;
  }

  private static String time(long epochMillis) {
    return Instant.ofEpochMilli(epochMillis).atOffset(ZoneOffset.UTC).toLocalTime().toString();
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
