package io.weir.nexmark.oracle;

import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/** The generated events as DuckDB tables {@code person}, {@code auction} and {@code bid}. */
final class EventTables {
  private EventTables() {}

  static void load(DuckDBConnection connection, EventGenerator generator, long count)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE person (id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR,"
              + " city VARCHAR, state VARCHAR, dateTime BIGINT, extra VARCHAR)");
      statement.execute(
          "CREATE TABLE auction (id BIGINT, itemName VARCHAR, description VARCHAR,"
              + " initialBid BIGINT, reserve BIGINT, dateTime BIGINT, expires BIGINT,"
              + " seller BIGINT, category BIGINT, extra VARCHAR)");
      statement.execute(
          "CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR,"
              + " url VARCHAR, dateTime BIGINT, extra VARCHAR)");
    }
    try (DuckDBAppender persons =
            connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "person");
        DuckDBAppender auctions =
            connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "auction");
        DuckDBAppender bids = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "bid")) {
      for (long position = 0; position < count; position++) {
        Event event = generator.generate(position);
        switch (event.type()) {
          case PERSON -> append(persons, event.person());
          case AUCTION -> append(auctions, event.auction());
          case BID -> append(bids, event.bid());
        }
      }
    }
  }

  private static void append(DuckDBAppender appender, Person person) throws SQLException {
    appender.beginRow();
    appender.append(person.id());
    appender.append(person.name());
    appender.append(person.emailAddress());
    appender.append(person.creditCard());
    appender.append(person.city());
    appender.append(person.state());
    appender.append(person.dateTime());
    appender.append(person.extra());
    appender.endRow();
  }

  private static void append(DuckDBAppender appender, Auction auction) throws SQLException {
    appender.beginRow();
    appender.append(auction.id());
    appender.append(auction.itemName());
    appender.append(auction.description());
    appender.append(auction.initialBid());
    appender.append(auction.reserve());
    appender.append(auction.dateTime());
    appender.append(auction.expires());
    appender.append(auction.seller());
    appender.append(auction.category());
    appender.append(auction.extra());
    appender.endRow();
  }

  private static void append(DuckDBAppender appender, Bid bid) throws SQLException {
    appender.beginRow();
    appender.append(bid.auction());
    appender.append(bid.bidder());
    appender.append(bid.price());
    appender.append(bid.channel());
    appender.append(bid.url());
    appender.append(bid.dateTime());
    appender.append(bid.extra());
    appender.endRow();
  }
}
