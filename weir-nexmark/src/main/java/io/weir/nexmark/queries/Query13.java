package io.weir.nexmark.queries;

import io.weir.api.datastream.BroadcastStream;
import io.weir.api.datastream.DataStream;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapStateDescriptor;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * q13: bounded side input join, every bid with the value of a fixed side table for its auction id
 * modulo {@value #SIDE_KEYS}. The side table ({@link #sideTable}: key {@code k}, value {@code
 * "value-k"}) is a bounded source broadcast to every subtask of the join into broadcast state.
 *
 * <p>A bid that arrives before its side row waits in keyed state until event time passes the bid's
 * time. The side source has no event time of its own, so it holds the join's event time back until
 * it has sent its last row: by then every row is in the broadcast state.
 */
public final class Query13 implements NexmarkQuery<Query13.BidWithSideValue> {
  public static final int SIDE_KEYS = 1_000;
  static final MapStateDescriptor<Long, String> SIDE_ROWS = new MapStateDescriptor<>("side-rows");

  public record BidWithSideValue(
      long auction, long bidder, long price, long dateTime, String value) {}

  /** One row of the side table. */
  public record SideRow(long key, String value) implements Serializable {}

  @Override
  public String name() {
    return "q13";
  }

  @Override
  public String description() {
    return "bounded side input join: each bid with a fixed side table's value for its auction";
  }

  @Override
  public DataStream<BidWithSideValue> apply(DataStream<Event> events) {
    BroadcastStream<SideRow> side =
        events
            .getExecutionEnvironment()
            .fromCollection(sideTable())
            .name("Side table")
            .uid("nexmark-side-table")
            .broadcast(SIDE_ROWS);
    return EventStreams.bids(events)
        .keyBy(bid -> bid.auction() % SIDE_KEYS)
        .connect(side)
        .process(new JoinSideTable())
        .name("Bid with side value");
  }

  @Override
  public String sql() {
    return "SELECT b.auction, b.bidder, b.price, b.dateTime, s.value FROM bid b JOIN"
        + " (SELECT k AS key, 'value-' || k AS value FROM range("
        + SIDE_KEYS
        + ") AS keys(k)) s ON b.auction % "
        + SIDE_KEYS
        + " = s.key";
  }

  /** The side table: key {@code k} from 0 to {@value #SIDE_KEYS} − 1, value {@code "value-k"}. */
  public static List<SideRow> sideTable() {
    List<SideRow> rows = new ArrayList<>(SIDE_KEYS);
    for (long key = 0; key < SIDE_KEYS; key++) {
      rows.add(new SideRow(key, "value-" + key));
    }
    return rows;
  }

  /** Each bid with its side row's value, at once or, while the row has not come, later. */
  static final class JoinSideTable
      extends KeyedBroadcastProcessFunction<Long, Bid, SideRow, BidWithSideValue> {
    private transient ListState<Bid> waiting;

    @Override
    public void open() {
      waiting =
          getRuntimeContext()
              .getListState(new ListStateDescriptor<>("waiting-bids", EventSerializers.BID));
    }

    @Override
    public void processElement(
        Bid bid, ReadOnlyContext<Long> context, Collector<BidWithSideValue> out) {
      String value = context.getBroadcastState(SIDE_ROWS).get(context.currentKey());
      if (value != null) {
        out.collect(joined(bid, value));
      } else {
        waiting.add(bid);
        context.timerService().registerEventTimeTimer(bid.dateTime());
      }
    }

    @Override
    public void processBroadcastElement(
        SideRow row, Context context, Collector<BidWithSideValue> out) throws Exception {
      context.getBroadcastState(SIDE_ROWS).put(row.key(), row.value());
    }

    @Override
    public void onTimer(
        long timestamp, OnTimerContext<Long> context, Collector<BidWithSideValue> out) {
      String value = context.getBroadcastState(SIDE_ROWS).get(context.currentKey());
      List<Bid> left = new ArrayList<>();
      for (Bid bid : waiting.get()) {
        if (bid.dateTime() > timestamp) {
          left.add(bid);
        } else if (value != null) {
          out.collect(joined(bid, value));
        }
      }
      waiting.update(left);
    }
  }

  /** The row of a bid and its side row's value. */
  public static BidWithSideValue joined(Bid bid, String value) {
    return new BidWithSideValue(bid.auction(), bid.bidder(), bid.price(), bid.dateTime(), value);
  }
}
