package io.weir.nexmark.flink;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.Query13;
import io.weir.nexmark.queries.Query13.BidWithSideValue;
import io.weir.nexmark.queries.Query13.SideRow;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * q13: each bid with the value of Weir's fixed side table ({@link Query13#sideTable}) for its
 * auction id, the table a bounded source broadcast into broadcast state, as in Weir's q13. The side
 * source has no event time, so it holds the join's event time back until it has sent its last row;
 * a bid that arrives before its row waits in keyed state until event time passes it.
 */
final class SideTableQuery {
  private static final MapStateDescriptor<Long, String> SIDE_ROWS =
      new MapStateDescriptor<>("side-rows", Types.LONG, Types.STRING);

  private SideTableQuery() {}

  static DataStream<BidWithSideValue> apply(DataStream<Event> events) {
    BroadcastStream<SideRow> side =
        events
            .getExecutionEnvironment()
            .fromData(Query13.sideTable())
            .name("Side table")
            .broadcast(SIDE_ROWS);
    return SelectionQueries.bids(events)
        .keyBy(bid -> bid.auction() % Query13.SIDE_KEYS, Types.LONG)
        .connect(side)
        .process(new JoinSideTable(), TypeInformation.of(BidWithSideValue.class))
        .name("Bid with side value");
  }

  /** Each bid with its side row's value, at once or, while the row has not come, later. */
  static final class JoinSideTable
      extends KeyedBroadcastProcessFunction<Long, Bid, SideRow, BidWithSideValue> {
    private transient ListState<Bid> waiting;

    @Override
    public void open(OpenContext openContext) {
      waiting =
          getRuntimeContext().getListState(new ListStateDescriptor<>("waiting-bids", Bid.class));
    }

    @Override
    public void processElement(Bid bid, ReadOnlyContext context, Collector<BidWithSideValue> out)
        throws Exception {
      String value = context.getBroadcastState(SIDE_ROWS).get(context.getCurrentKey());
      if (value != null) {
        out.collect(Query13.joined(bid, value));
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
    public void onTimer(long timestamp, OnTimerContext context, Collector<BidWithSideValue> out)
        throws Exception {
      String value = context.getBroadcastState(SIDE_ROWS).get(context.getCurrentKey());
      List<Bid> left = new ArrayList<>();
      for (Bid bid : waiting.get()) {
        if (bid.dateTime() > timestamp) {
          left.add(bid);
        } else if (value != null) {
          out.collect(Query13.joined(bid, value));
        }
      }
      waiting.update(left);
    }
  }
}
