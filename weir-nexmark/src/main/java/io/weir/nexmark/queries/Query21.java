package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * q21: each bid with a channel id: the number of one of the four hot channels, else the {@code
 * channel_id} parameter of its URL; bids with neither are left out.
 */
public final class Query21 implements NexmarkQuery<Query21.ChannelBid> {
  private static final Map<String, String> HOT_CHANNEL_IDS =
      Map.of("apple", "0", "google", "1", "facebook", "2", "baidu", "3");
  private static final String CHANNEL_ID_REGEX = "(&|^)channel_id=([^&]*)";
  private static final Pattern CHANNEL_ID = Pattern.compile(CHANNEL_ID_REGEX);

  public record ChannelBid(
      long auction, long bidder, long price, String channel, String channelId) {}

  @Override
  public String name() {
    return "q21";
  }

  @Override
  public String description() {
    return "string map: bids with the channel id from a fixed table or from the URL";
  }

  @Override
  public DataStream<ChannelBid> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .filter(bid -> channelId(bid) != null)
        .name("Has a channel id")
        .map(Query21::withChannelId)
        .name("Channel id");
  }

  /** The bid's row; only for a bid that has a channel id ({@link #channelId}). */
  public static ChannelBid withChannelId(Bid bid) {
    return new ChannelBid(bid.auction(), bid.bidder(), bid.price(), bid.channel(), channelId(bid));
  }

  /** The bid's channel id, or null when it has none (and is left out). */
  public static String channelId(Bid bid) {
    String hot = HOT_CHANNEL_IDS.get(bid.channel().toLowerCase(Locale.ROOT));
    if (hot != null) {
      return hot;
    }
    Matcher matcher = CHANNEL_ID.matcher(bid.url());
    return matcher.find() ? matcher.group(2) : null;
  }

  @Override
  public String sql() {
    String extracted = "regexp_extract(url, '" + CHANNEL_ID_REGEX + "', 2)";
    return "SELECT auction, bidder, price, channel, CASE lower(channel)"
        + " WHEN 'apple' THEN '0' WHEN 'google' THEN '1' WHEN 'facebook' THEN '2'"
        + " WHEN 'baidu' THEN '3' ELSE "
        + extracted
        + " END AS channelId FROM bid WHERE lower(channel) IN ('apple', 'google', 'facebook',"
        + " 'baidu') OR regexp_matches(url, '"
        + CHANNEL_ID_REGEX
        + "')";
  }
}
