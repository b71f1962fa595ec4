package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import io.weir.api.graph.ChainingStrategy;
import io.weir.api.graph.Transformation;

/** The end of a stream: settings of the sink operator. */
@Public
public final class DataStreamSink<T> {
  private final Transformation transformation;

  DataStreamSink(Transformation transformation) {
    this.transformation = transformation;
  }

  public DataStreamSink<T> name(String name) {
    transformation.setName(name);
    return this;
  }

  public DataStreamSink<T> uid(String uid) {
    transformation.setUid(uid);
    return this;
  }

  public DataStreamSink<T> setParallelism(int parallelism) {
    transformation.setParallelism(parallelism);
    return this;
  }

  public DataStreamSink<T> disableChaining() {
    transformation.setChainingStrategy(ChainingStrategy.NEVER);
    return this;
  }

  public Transformation transformation() {
    return transformation;
  }
}
