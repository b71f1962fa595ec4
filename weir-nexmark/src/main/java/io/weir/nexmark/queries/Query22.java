package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/** q22: each bid with the first three directories of its URL's path ("" where there are fewer). */
public final class Query22 implements NexmarkQuery<Query22.UrlDirectories> {
  public record UrlDirectories(
      long auction,
      long bidder,
      long price,
      String channel,
      String dir1,
      String dir2,
      String dir3) {}

  @Override
  public String name() {
    return "q22";
  }

  @Override
  public String description() {
    return "string split: bids with the first three directories of their URL";
  }

  @Override
  public DataStream<UrlDirectories> apply(DataStream<Event> events) {
    return EventStreams.bids(events).map(Query22::directories).name("URL directories");
  }

  /** The bid's row. */
  public static UrlDirectories directories(Bid bid) {
    // "https://host/a/b/c/..." splits into "https:", "", "host", "a", "b", "c", ...
    String[] parts = bid.url().split("/", -1);
    return new UrlDirectories(
        bid.auction(),
        bid.bidder(),
        bid.price(),
        bid.channel(),
        part(parts, 3),
        part(parts, 4),
        part(parts, 5));
  }

  private static String part(String[] parts, int index) {
    return index < parts.length ? parts[index] : "";
  }

  @Override
  public String sql() {
    return "SELECT auction, bidder, price, channel, split_part(url, '/', 4) AS dir1,"
        + " split_part(url, '/', 5) AS dir2, split_part(url, '/', 6) AS dir3 FROM bid";
  }
}
