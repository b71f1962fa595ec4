package io.weir.nexmark.queries;

import io.weir.nexmark.model.Bid;
import java.util.Comparator;

/**
 * The orders in which queries rank bids, each defined once for both sides of the check: as a
 * comparator for Weir's operators and as the same {@code ORDER BY} for the SQL. Every order ends
 * with all remaining fields, so two bids rank equal only when they are the same bid, and a top-N or
 * a deduplication has exactly one answer. Public for the Flink versions of the queries, which rank
 * in the same orders.
 */
public enum BidOrder {
  /** Highest price first; at the same price the earlier bid, then the lower bidder id. */
  HIGHEST_PRICE_FIRST(
      Comparator.comparingLong(Bid::price).reversed().thenComparing(BidOrder.earliestFirst()),
      "price DESC, dateTime ASC, " + BidOrder.REMAINING),
  /** Latest bid first; at the same time the higher price, then the lower bidder id. */
  LATEST_FIRST(
      Comparator.comparingLong(Bid::dateTime)
          .reversed()
          .thenComparing(Comparator.comparingLong(Bid::price).reversed())
          .thenComparing(BidOrder.remaining()),
      "dateTime DESC, price DESC, " + BidOrder.REMAINING);

  private static final String REMAINING =
      "bidder ASC, auction ASC, channel ASC, url ASC, extra ASC";

  private final Comparator<Bid> comparator;
  private final String orderBy;

  BidOrder(Comparator<Bid> comparator, String orderBy) {
    this.comparator = comparator;
    this.orderBy = orderBy;
  }

  public Comparator<Bid> comparator() {
    return comparator;
  }

  /** The order as an {@code ORDER BY} list over the bid columns of table {@code alias}. */
  String sql(String alias) {
    return orderBy.replace(", ", ", " + alias + ".").replaceFirst("^", alias + ".");
  }

  /** True when {@code candidate} ranks before {@code current} (or there is no current). */
  public boolean ranksBefore(Bid candidate, Bid current) {
    return current == null || comparator.compare(candidate, current) < 0;
  }

  private static Comparator<Bid> earliestFirst() {
    return Comparator.comparingLong(Bid::dateTime).thenComparing(remaining());
  }

  // Java compares strings by UTF-16 unit and DuckDB by byte: the generator's strings are ASCII,
  // where the two agree.
  private static Comparator<Bid> remaining() {
    return Comparator.comparingLong(Bid::bidder)
        .thenComparingLong(Bid::auction)
        .thenComparing(Bid::channel)
        .thenComparing(Bid::url)
        .thenComparing(Bid::extra);
  }
}
