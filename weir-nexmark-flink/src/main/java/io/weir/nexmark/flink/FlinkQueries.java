package io.weir.nexmark.flink;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The queries written for Flink, by the name of the Weir query each mirrors. */
final class FlinkQueries {
  private static final Map<String, FlinkQuery> BY_NAME = new LinkedHashMap<>();

  static {
    BY_NAME.put("q0", SelectionQueries::passThrough);
    BY_NAME.put("q1", SelectionQueries::euros);
    BY_NAME.put("q2", SelectionQueries::selectedAuctions);
    BY_NAME.put("q3", JoinQueries::localItems);
    BY_NAME.put("q4", WinnerQueries::categoryPrices);
    BY_NAME.put("q5", HotItemsQuery::apply);
    BY_NAME.put("q6", WinnerQueries::sellerPrices);
    BY_NAME.put("q7", HighestBidQuery::apply);
    BY_NAME.put("q8", WindowQueries::newSellers);
    BY_NAME.put("q9", WinnerQueries::winners);
    BY_NAME.put("q10", SelectionQueries::loggedBids);
    BY_NAME.put("q11", WindowQueries::bidderSessions);
    BY_NAME.put("q12", WindowQueries::bidderWindows);
    BY_NAME.put("q13", SideTableQuery::apply);
    BY_NAME.put("q14", SelectionQueries::timedBids);
    BY_NAME.put("q15", BiddingReportQueries::dailyBidding);
    BY_NAME.put("q16", BiddingReportQueries::channelBidding);
    BY_NAME.put("q17", AuctionDayQuery::apply);
    BY_NAME.put("q18", RankingQueries::lastBids);
    BY_NAME.put("q19", RankingQueries::topBids);
    BY_NAME.put("q20", JoinQueries::bidsWithAuction);
    BY_NAME.put("q21", SelectionQueries::channelIds);
    BY_NAME.put("q22", SelectionQueries::urlDirectories);
  }

  private FlinkQueries() {}

  static Optional<FlinkQuery> named(String name) {
    return Optional.ofNullable(BY_NAME.get(name.toLowerCase(java.util.Locale.ROOT)));
  }
}
