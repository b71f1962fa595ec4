package io.weir.nexmark.queries;

import io.weir.api.functions.Collector;
import io.weir.api.functions.JoinFunction;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/**
 * An incremental inner join of two streams keyed alike, where the first input has at most one
 * record per key (a person by id, an auction by id) and the second any number (auctions by seller,
 * bids by auction). Each pair is emitted once, as soon as both have arrived: the first input's
 * record stays in keyed state for the records still to come; a second-input record that arrives
 * before its partner waits in keyed state until the partner comes. The result is the SQL inner join
 * whatever order the two inputs interleave in.
 */
final class OneToManyJoin<K, ONE, MANY, OUT> extends KeyedCoProcessFunction<K, ONE, MANY, OUT> {
  private final StateSerializer<ONE> oneSerializer;
  private final StateSerializer<MANY> manySerializer;
  private final JoinFunction<ONE, MANY, OUT> join;
  private transient ValueState<ONE> one;
  private transient ListState<MANY> waiting;

  OneToManyJoin(
      StateSerializer<ONE> oneSerializer,
      StateSerializer<MANY> manySerializer,
      JoinFunction<ONE, MANY, OUT> join) {
    this.oneSerializer = oneSerializer;
    this.manySerializer = manySerializer;
    this.join = join;
  }

  @Override
  public void open() {
    one = getRuntimeContext().getState(new ValueStateDescriptor<>("one", oneSerializer));
    waiting =
        getRuntimeContext().getListState(new ListStateDescriptor<>("waiting", manySerializer));
  }

  @Override
  public void processElement1(
      ONE record, KeyedProcessFunction.Context<K> context, Collector<OUT> out) throws Exception {
    one.update(record);
    for (MANY partner : waiting.get()) {
      out.collect(join.join(record, partner));
    }
    waiting.clear();
  }

  @Override
  public void processElement2(
      MANY record, KeyedProcessFunction.Context<K> context, Collector<OUT> out) throws Exception {
    ONE partner = one.value();
    if (partner == null) {
      waiting.add(record);
    } else {
      out.collect(join.join(partner, record));
    }
  }
}
