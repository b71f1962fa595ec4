package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.graph.Input;
import io.weir.api.state.MapStateDescriptor;
import java.util.List;

/**
 * A stream whose every element goes to every subtask of the operator it is connected to, with the
 * broadcast states that operator keeps. Made by {@link DataStream#broadcast}; connect a keyed
 * stream to it with {@link KeyedStream#connect(BroadcastStream)}.
 */
@PublicEvolving
public final class BroadcastStream<T> {
  private final List<Input> inputs;
  private final List<MapStateDescriptor<?, ?>> descriptors;

  BroadcastStream(List<Input> inputs, List<MapStateDescriptor<?, ?>> descriptors) {
    this.inputs = List.copyOf(inputs);
    this.descriptors = List.copyOf(descriptors);
  }

  List<Input> inputs() {
    return inputs;
  }

  public List<MapStateDescriptor<?, ?>> descriptors() {
    return descriptors;
  }
}
