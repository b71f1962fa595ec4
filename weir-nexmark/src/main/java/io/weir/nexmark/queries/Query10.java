package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * q10: log to file system, every bid with the partition it belongs in: its UTC day ({@code dt},
 * {@code yyyy-MM-dd}) and minute ({@code hm}, {@code HH:mm}) of event time. Written to files, each
 * partition goes into a directory of its own, {@code dt=<dt>/hm=<hm>}; on a topic the partition is
 * in every row.
 */
public final class Query10 implements NexmarkQuery<Query10.LoggedBid> {
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  public record LoggedBid(
      long auction, long bidder, long price, long dateTime, String extra, String dt, String hm) {}

  @Override
  public String name() {
    return "q10";
  }

  @Override
  public String description() {
    return "log to file system: every bid with its partition, UTC day and minute";
  }

  @Override
  public DataStream<LoggedBid> apply(DataStream<Event> events) {
    return EventStreams.bids(events).map(Query10::logged).name("Bid with partition");
  }

  /** The bid's row, with its partition. */
  public static LoggedBid logged(Bid bid) {
    Instant time = Instant.ofEpochMilli(bid.dateTime());
    return new LoggedBid(
        bid.auction(),
        bid.bidder(),
        bid.price(),
        bid.dateTime(),
        bid.extra(),
        DAY.format(time),
        MINUTE.format(time));
  }

  @Override
  public List<String> partitionColumns() {
    return List.of("dt", "hm");
  }

  @Override
  public String partitionOf(LoggedBid bid) {
    return "dt=" + bid.dt() + "/hm=" + bid.hm();
  }

  @Override
  public String sql() {
    return "SELECT auction, bidder, price, dateTime, extra,"
        + " strftime(epoch_ms(dateTime), '%Y-%m-%d') AS dt,"
        + " strftime(epoch_ms(dateTime), '%H:%M') AS hm FROM bid";
  }
}
