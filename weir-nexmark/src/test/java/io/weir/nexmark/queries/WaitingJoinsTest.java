package io.weir.nexmark.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Person;
import io.weir.testing.OperatorHarnesses;
import io.weir.testing.TwoInputOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The joins that keep records waiting in state for a partner (q3 and q20, q9, q13), driven in the
 * orders a test on Kafka rarely produces: the partner last. Each harness snapshots and restores
 * after every input, so what waits must survive a restore.
 */
class WaitingJoinsTest {
  @Test
  void when_auctionsArriveBeforeTheirSeller_then_eachIsJoinedOnceTheSellerComes() throws Exception {
    // given
    try (TwoInputOperatorTestHarness<Person, Auction, String> harness =
        OperatorHarnesses.forKeyedCoProcess(
                Person::id,
                Auction::seller,
                new OneToManyJoin<Long, Person, Auction, String>(
                    EventSerializers.PERSON,
                    EventSerializers.AUCTION,
                    (person, auction) -> person.name() + " sells " + auction.id()))
            .restoreAfterEveryInput()
            .open()) {
      // when
      harness.processElement2(auction(1, 7, 10, 20), 10).processElement2(auction(2, 7, 11, 20), 11);
      assertThat(harness.output()).isEmpty();
      harness.processElement1(person(7, "Ada"), 12).processElement2(auction(3, 7, 13, 20), 13);
      harness.processElement2(auction(4, 8, 14, 20), 14);

      // then
      assertThat(harness.output()).containsExactly("Ada sells 1", "Ada sells 2", "Ada sells 3");
    }
  }

  @Test
  void when_bidsArriveBeforeTheirAuction_then_theWinnerIsTheHighestPlacedWhileItWasOpen()
      throws Exception {
    // given: an auction open from 100 to 200
    try (TwoInputOperatorTestHarness<Auction, Bid, WinningBids.Winner> harness =
        OperatorHarnesses.forKeyedCoProcess(Auction::id, Bid::auction, new WinningBids())
            .restoreAfterEveryInput()
            .open()) {
      // when: bids before it opened (highest of all), at the open price twice, and after expiry
      harness
          .processElement2(bid(1, 21, 900, 99), 99)
          .processElement2(bid(1, 22, 500, 150), 150)
          .processElement2(bid(1, 23, 500, 120), 120)
          .processElement1(auction(1, 7, 100, 200), 100)
          .processElement2(bid(1, 24, 400, 200), 200)
          .processElement2(bid(1, 25, 1_000, 201), 201);
      assertThat(harness.output()).isEmpty();
      harness.processWatermark(300);

      // then: of the two at 500 the earlier wins, at the expiry
      assertThat(harness.outputWithTimestamps()).hasSize(1);
      assertThat(harness.outputWithTimestamps().get(0).value().bid())
          .isEqualTo(bid(1, 23, 500, 120));
      assertThat(harness.outputWithTimestamps().get(0).timestamp()).isEqualTo(200);
    }
  }

  @Test
  void when_bidsArriveBeforeTheSideTable_then_eachIsJoinedOnceEventTimePassesIt() throws Exception {
    // given
    try (TwoInputOperatorTestHarness<Bid, Query13.SideRow, Query13.BidWithSideValue> harness =
        OperatorHarnesses.forKeyedBroadcastProcess(
                (Bid bid) -> bid.auction() % Query13.SIDE_KEYS,
                new Query13.JoinSideTable(),
                Query13.SIDE_ROWS)
            .restoreAfterEveryInput()
            .open()) {
      // when: a bid before its row, a bid after it, a bid whose key has no row
      harness.processElement1(bid(1_001, 21, 500, 10), 10);
      harness.processBroadcastElement(new Query13.SideRow(1, "value-1"), 0);
      harness.processElement1(bid(2_001, 22, 600, 20), 20);
      harness.processElement1(bid(1_002, 23, 700, 25), 25);
      assertThat(harness.output())
          .extracting(Query13.BidWithSideValue::auction)
          .containsExactly(2_001L);
      harness.processWatermark(30);

      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrder(
              new Query13.BidWithSideValue(2_001, 22, 600, 20, "value-1"),
              new Query13.BidWithSideValue(1_001, 21, 500, 10, "value-1"));
    }
  }

  private static Person person(long id, String name) {
    return new Person(id, name, "", "", "Boise", "ID", 0, "");
  }

  private static Auction auction(long id, long seller, long opens, long expires) {
    return new Auction(id, "item", "", 100, 200, opens, expires, seller, 10, "");
  }

  private static Bid bid(long auction, long bidder, long price, long dateTime) {
    return new Bid(auction, bidder, price, "Google", "https://www.nexmark.com/", dateTime, "");
  }
}
