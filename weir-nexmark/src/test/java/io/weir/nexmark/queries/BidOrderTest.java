package io.weir.nexmark.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.nexmark.model.Bid;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each bid order ranks bids the same in Weir (its comparator) and in DuckDB (its ORDER BY). */
class BidOrderTest {
  @ParameterizedTest
  @EnumSource(BidOrder.class)
  void when_bidsTieOnEveryLeadingField_then_theComparatorAndTheSqlRankThemAlike(BidOrder order)
      throws Exception {
    // given: few distinct values per field, so most bids tie on the first fields of the order
    List<Bid> bids = new ArrayList<>();
    Random random = new Random(48);
    for (int index = 0; index < 300; index++) {
      bids.add(
          new Bid(
              1000 + random.nextInt(2),
              2000 + random.nextInt(3),
              100 * (1 + random.nextInt(2)),
              random.nextBoolean() ? "Apple" : "Baidu",
              "https://www.nexmark.com/" + random.nextInt(2),
              random.nextInt(3),
              "x" + random.nextInt(2)));
    }
    Collections.shuffle(bids, random);

    // when
    List<Bid> byComparator = new ArrayList<>(bids);
    byComparator.sort(order.comparator());
    List<Bid> bySql = sortedBySql(bids, order);

    // then
    assertThat(byComparator).containsExactlyElementsOf(bySql);
  }

  private static List<Bid> sortedBySql(List<Bid> bids, BidOrder order) throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR,"
              + " url VARCHAR, dateTime BIGINT, extra VARCHAR)");
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO bid VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        for (Bid bid : bids) {
          insert.setLong(1, bid.auction());
          insert.setLong(2, bid.bidder());
          insert.setLong(3, bid.price());
          insert.setString(4, bid.channel());
          insert.setString(5, bid.url());
          insert.setLong(6, bid.dateTime());
          insert.setString(7, bid.extra());
          insert.addBatch();
        }
        insert.executeBatch();
      }
      List<Bid> sorted = new ArrayList<>();
      try (ResultSet rows =
          statement.executeQuery("SELECT * FROM bid ORDER BY " + order.sql("bid"))) {
        while (rows.next()) {
          sorted.add(
              new Bid(
                  rows.getLong("auction"),
                  rows.getLong("bidder"),
                  rows.getLong("price"),
                  rows.getString("channel"),
                  rows.getString("url"),
                  rows.getLong("dateTime"),
                  rows.getString("extra")));
        }
      }
      return sorted;
    }
  }
}
