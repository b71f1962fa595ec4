package io.weir.api.graph;

import io.weir.api.annotation.Internal;
import io.weir.api.state.StateSerializer;
import java.util.List;
import java.util.Objects;

/**
 * A node of the stream graph: one operator as the user wrote it, before chaining. Ids are given in
 * creation order, so running the same job code twice gives the same ids; the {@code uid}, when set,
 * is what matches the operator's state in a checkpoint.
 */
@Internal
public final class Transformation {
  private final int id;
  private final OperatorSpec spec;
  private final List<Input> inputs;
  private String name;
  private String uid;
  private int parallelism;
  private ChainingStrategy chainingStrategy = ChainingStrategy.ALWAYS;
  private StateSerializer<?> serializer;
  private Class<?> recordType;

  public Transformation(int id, OperatorSpec spec, List<Input> inputs, int parallelism) {
    this.id = id;
    this.spec = Objects.requireNonNull(spec, "spec");
    this.inputs = List.copyOf(inputs);
    this.name = spec.kind();
    this.parallelism = parallelism;
  }

  public int id() {
    return id;
  }

  public OperatorSpec spec() {
    return spec;
  }

  public List<Input> inputs() {
    return inputs;
  }

  public String name() {
    return name;
  }

  /** The name shown in plans: {@code Source: X} and {@code Sink: X} carry their kind. */
  public String displayName() {
    if (spec instanceof OperatorSpec.Source || spec instanceof OperatorSpec.Sink) {
      return name.equals(spec.kind()) ? name : spec.kind() + ": " + name;
    }
    return name;
  }

  public void setName(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  /** The uid, or a stable id made from the creation order when none was set. */
  public String uid() {
    return uid != null ? uid : "operator-" + id;
  }

  public boolean hasUserUid() {
    return uid != null;
  }

  public void setUid(String uid) {
    this.uid = Objects.requireNonNull(uid, "uid");
  }

  /** The parallelism, or -1 for the job's default. */
  public int parallelism() {
    return parallelism;
  }

  public void setParallelism(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("Parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = parallelism;
  }

  public ChainingStrategy chainingStrategy() {
    return chainingStrategy;
  }

  public void setChainingStrategy(ChainingStrategy chainingStrategy) {
    this.chainingStrategy = chainingStrategy;
  }

  /**
   * How this operator's records travel between task managers, or null for the exchange's own
   * encoding (plain binary for strings, boxed primitives and byte arrays, records and POJOs by the
   * default serializer of their class, else Java serialization).
   */
  public StateSerializer<?> serializer() {
    return serializer;
  }

  public void setSerializer(StateSerializer<?> serializer) {
    this.serializer = Objects.requireNonNull(serializer, "serializer");
  }

  /** The class of this operator's records, if the job declared it; null when it did not. */
  public Class<?> recordType() {
    return recordType;
  }

  public void setRecordType(Class<?> recordType) {
    this.recordType = Objects.requireNonNull(recordType, "recordType");
  }

  @Override
  public String toString() {
    return displayName() + "#" + id;
  }
}
