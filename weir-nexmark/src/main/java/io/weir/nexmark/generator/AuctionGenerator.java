package io.weir.nexmark.generator;

import io.weir.nexmark.model.Auction;
import java.util.Random;

/**
 * Auctions: most sellers are hot (one of a few recent persons), the rest any active person; an
 * auction runs long enough for about the next {@link EventIds#AUCTIONS_IN_FLIGHT} auctions to be
 * created.
 */
final class AuctionGenerator {
  /** One seller in this many is a hot seller's id, rounded down to a multiple of it. */
  private static final long HOT_SELLER_RATIO = 100;

  /** Three in four auctions have a hot seller. */
  private static final int HOT_SELLERS_ONE_IN = 4;

  private static final int CATEGORIES = 5;
  private static final int AVERAGE_SIZE = 500;

  private AuctionGenerator() {}

  static Auction auction(long eventNumber, Random random, long timestamp, GeneratorConfig config) {
    long id = EventIds.lastAuctionId(eventNumber) + EventIds.FIRST_AUCTION_ID;
    long seller;
    if (random.nextInt(HOT_SELLERS_ONE_IN) > 0) {
      seller = (EventIds.lastPersonId(eventNumber) / HOT_SELLER_RATIO) * HOT_SELLER_RATIO;
    } else {
      seller = EventIds.nextPersonId(eventNumber, random);
    }
    seller += EventIds.FIRST_PERSON_ID;
    long category = EventIds.FIRST_CATEGORY_ID + random.nextInt(CATEGORIES);
    long initialBid = RandomValues.price(random);
    long expires = timestamp + length(eventNumber, random, config);
    String itemName = RandomValues.string(random, 20);
    String description = RandomValues.string(random, 100);
    long reserve = initialBid + RandomValues.price(random);
    int size = 8 + itemName.length() + description.length() + 8 + 8 + 8 + 8 + 8;
    String extra = RandomValues.extra(random, size, AVERAGE_SIZE);
    return new Auction(
        id,
        itemName,
        description,
        initialBid,
        reserve,
        timestamp,
        expires,
        seller,
        category,
        extra);
  }

  /** Up to twice the event time it takes to create the next auctions in flight. */
  private static long length(long eventNumber, Random random, GeneratorConfig config) {
    long eventsForAuctions =
        EventIds.AUCTIONS_IN_FLIGHT * EventIds.TOTAL_PROPORTION / EventIds.AUCTION_PROPORTION;
    long horizon =
        config.timestamp(eventNumber + eventsForAuctions) - config.timestamp(eventNumber);
    return 1 + random.nextLong(Math.max(horizon * 2, 1));
  }
}
