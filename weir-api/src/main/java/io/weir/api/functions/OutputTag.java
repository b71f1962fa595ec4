package io.weir.api.functions;

import io.weir.api.annotation.Public;
import java.io.Serializable;
import java.util.Objects;

/** Names a side output, such as the late records of a window. */
@Public
public final class OutputTag<T> implements Serializable {
  private final String id;

  public OutputTag(String id) {
    this.id = Objects.requireNonNull(id, "id");
  }

  public String id() {
    return id;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutputTag<?> tag && tag.id.equals(id);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  @Override
  public String toString() {
    return "OutputTag(" + id + ")";
  }
}
