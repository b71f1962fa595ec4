package io.weir.nexmark.flink;

import org.apache.flink.api.common.functions.JoinFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The incremental inner join of Weir's {@code OneToManyJoin} (q3, q20) on Flink's keyed co-process
 * function: the first input has at most one record per key and stays in keyed state; a second-input
 * record that arrives before its partner waits in keyed state for it. Each pair is emitted once,
 * whatever order the inputs interleave in.
 */
final class OneToManyJoin<K, ONE, MANY, OUT> extends KeyedCoProcessFunction<K, ONE, MANY, OUT> {
  private final JoinFunction<ONE, MANY, OUT> join;
  private final Class<ONE> oneType;
  private final Class<MANY> manyType;
  private transient ValueState<ONE> one;
  private transient ListState<MANY> waiting;

  OneToManyJoin(JoinFunction<ONE, MANY, OUT> join, Class<ONE> oneType, Class<MANY> manyType) {
    this.join = join;
    this.oneType = oneType;
    this.manyType = manyType;
  }

  @Override
  public void open(OpenContext openContext) {
    one = getRuntimeContext().getState(new ValueStateDescriptor<>("one", oneType));
    waiting = getRuntimeContext().getListState(new ListStateDescriptor<>("waiting", manyType));
  }

  @Override
  public void processElement1(ONE record, Context context, Collector<OUT> out) throws Exception {
    one.update(record);
    for (MANY partner : waiting.get()) {
      out.collect(join.join(record, partner));
    }
    waiting.clear();
  }

  @Override
  public void processElement2(MANY record, Context context, Collector<OUT> out) throws Exception {
    ONE partner = one.value();
    if (partner == null) {
      waiting.add(record);
    } else {
      out.collect(join.join(partner, record));
    }
  }
}
