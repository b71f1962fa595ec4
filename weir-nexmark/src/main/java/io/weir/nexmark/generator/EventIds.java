package io.weir.nexmark.generator;

import java.util.Random;

/**
 * The model's id arithmetic. Of every 50 consecutive event numbers 1 is a person, 3 are auctions
 * and 46 are bids, in that order, so the number of persons and auctions created before any event
 * follows from its number alone. Auctions and bids refer to persons and auctions that exist or are
 * about to: a few ids ahead of the last one, so references sometimes arrive before what they refer
 * to, as they would in a real stream.
 */
final class EventIds {
  static final long FIRST_PERSON_ID = 1000;
  static final long FIRST_AUCTION_ID = 1000;
  static final long FIRST_CATEGORY_ID = 10;

  static final int PERSON_PROPORTION = 1;
  static final int AUCTION_PROPORTION = 3;
  static final int BID_PROPORTION = 46;
  static final int TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;

  /** Auctions and bids refer to one of the most recent persons, not to all of them. */
  private static final long ACTIVE_PERSONS = 1000;

  /** Bids go to one of the most recent auctions, not to all of them. */
  static final long AUCTIONS_IN_FLIGHT = 100;

  private static final long PERSON_ID_LEAD = 10;
  private static final long AUCTION_ID_LEAD = 10;

  private EventIds() {}

  static boolean isPerson(long eventNumber) {
    return eventNumber % TOTAL_PROPORTION < PERSON_PROPORTION;
  }

  static boolean isAuction(long eventNumber) {
    return !isPerson(eventNumber)
        && eventNumber % TOTAL_PROPORTION < PERSON_PROPORTION + AUCTION_PROPORTION;
  }

  /** The 0-based id of the last person created at or before {@code eventNumber}. */
  static long lastPersonId(long eventNumber) {
    long epoch = eventNumber / TOTAL_PROPORTION;
    long offset = Math.min(eventNumber % TOTAL_PROPORTION, PERSON_PROPORTION - 1);
    return epoch * PERSON_PROPORTION + offset;
  }

  /** The 0-based id of the last auction created at or before {@code eventNumber} (-1: none). */
  static long lastAuctionId(long eventNumber) {
    long epoch = eventNumber / TOTAL_PROPORTION;
    long offset = eventNumber % TOTAL_PROPORTION;
    if (offset < PERSON_PROPORTION) {
      epoch--;
      offset = AUCTION_PROPORTION - 1;
    } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
      offset = AUCTION_PROPORTION - 1;
    } else {
      offset -= PERSON_PROPORTION;
    }
    return epoch * AUCTION_PROPORTION + offset;
  }

  /** A 0-based id among the active persons, or a few ahead of the last one. */
  static long nextPersonId(long eventNumber, Random random) {
    long persons = lastPersonId(eventNumber) + 1;
    long active = Math.min(persons, ACTIVE_PERSONS);
    return persons - active + random.nextLong(active + PERSON_ID_LEAD);
  }

  /** A 0-based id among the auctions in flight, or a few ahead of the last one. */
  static long nextAuctionId(long eventNumber, Random random) {
    long last = lastAuctionId(eventNumber);
    long first = Math.max(last - AUCTIONS_IN_FLIGHT, 0);
    return first + random.nextLong(last - first + 1 + AUCTION_ID_LEAD);
  }
}
