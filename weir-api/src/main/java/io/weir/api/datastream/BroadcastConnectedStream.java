package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import java.util.ArrayList;
import java.util.List;

/** A keyed stream connected with a broadcast stream; {@link #process} adds the operator. */
@PublicEvolving
public final class BroadcastConnectedStream<IN, B, K> {
  private final KeyedStream<IN, K> keyed;
  private final BroadcastStream<B> broadcast;

  BroadcastConnectedStream(KeyedStream<IN, K> keyed, BroadcastStream<B> broadcast) {
    this.keyed = keyed;
    this.broadcast = broadcast;
  }

  public <OUT> DataStream<OUT> process(KeyedBroadcastProcessFunction<K, IN, B, OUT> function) {
    List<Input> inputs = new ArrayList<>(keyed.downstreamInputs());
    inputs.addAll(broadcast.inputs());
    OperatorSpec spec =
        new OperatorSpec.KeyedBroadcastProcess(
            function, keyed.downstreamInputs().size(), broadcast.descriptors());
    return new DataStream<>(keyed.env, keyed.env.add(spec, inputs, -1));
  }
}
