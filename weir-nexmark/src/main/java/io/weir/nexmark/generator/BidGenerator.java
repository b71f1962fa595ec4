package io.weir.nexmark.generator;

import io.weir.nexmark.model.Bid;
import java.util.List;
import java.util.Random;

/**
 * Bids: half go to a hot auction, three in four come from a hot bidder, half through one of four
 * hot channels; the other channels are numbered and carry their number in the URL.
 */
final class BidGenerator {
  /** Hot auction and bidder ids are multiples of these (0-based). */
  private static final long HOT_AUCTION_RATIO = 100;

  private static final long HOT_BIDDER_RATIO = 100;
  private static final int HOT_AUCTIONS_ONE_IN = 2;
  private static final int HOT_BIDDERS_ONE_IN = 4;
  private static final int HOT_CHANNELS_ONE_IN = 2;
  private static final int CHANNELS = 10_000;
  private static final List<String> HOT_CHANNELS = List.of("Google", "Facebook", "Baidu", "Apple");
  private static final int AVERAGE_SIZE = 100;

  private BidGenerator() {}

  static Bid bid(long eventNumber, Random random, long timestamp) {
    long auction;
    if (random.nextInt(HOT_AUCTIONS_ONE_IN) > 0) {
      auction = (EventIds.lastAuctionId(eventNumber) / HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO;
    } else {
      auction = EventIds.nextAuctionId(eventNumber, random);
    }
    auction += EventIds.FIRST_AUCTION_ID;
    long bidder;
    if (random.nextInt(HOT_BIDDERS_ONE_IN) > 0) {
      bidder = (EventIds.lastPersonId(eventNumber) / HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1;
    } else {
      bidder = EventIds.nextPersonId(eventNumber, random);
    }
    bidder += EventIds.FIRST_PERSON_ID;
    long price = RandomValues.price(random);
    String channel;
    String url;
    if (random.nextInt(HOT_CHANNELS_ONE_IN) > 0) {
      int hot = random.nextInt(HOT_CHANNELS.size());
      channel = HOT_CHANNELS.get(hot);
      url = baseUrl(new Random(hot));
    } else {
      int number = random.nextInt(CHANNELS);
      channel = "channel-" + number;
      url = baseUrl(new Random(CHANNELS + number)) + "&channel_id=" + (number * 7919 % CHANNELS);
    }
    int size = 8 + 8 + 8 + channel.length() + url.length() + 8;
    String extra = RandomValues.extra(random, size, AVERAGE_SIZE);
    return new Bid(auction, bidder, price, channel, url, timestamp, extra);
  }

  /** The same URL for the same channel: its random numbers depend on the channel only. */
  private static String baseUrl(Random channelRandom) {
    return "https://www.nexmark.com/"
        + RandomValues.word(channelRandom, 5)
        + "/"
        + RandomValues.word(channelRandom, 5)
        + "/"
        + RandomValues.word(channelRandom, 5)
        + "/item.htm?query=1";
  }
}
