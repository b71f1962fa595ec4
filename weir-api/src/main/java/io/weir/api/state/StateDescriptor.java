package io.weir.api.state;

import java.io.Serializable;
import java.util.Objects;

/** Names a state. The name identifies the state in checkpoints: keep it stable across versions. */
public abstract class StateDescriptor<T> implements Serializable {
  private final String name;

  protected StateDescriptor(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  public String name() {
    return name;
  }
}
