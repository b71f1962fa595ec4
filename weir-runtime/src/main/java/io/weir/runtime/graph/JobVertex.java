package io.weir.runtime.graph;

import io.weir.api.functions.KeySelector;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Partitioning;
import io.weir.api.graph.Transformation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A task of the job graph: operators chained into one thread per subtask, head first. The chain
 * notifies checkpoint completion in the job's notify order, by default tail first.
 *
 * @param id stable across runs of the same job code; names the task's state files
 * @param keySelector the key of the head's input when it follows a keyBy, else null
 */
public record JobVertex(
    String id, List<Transformation> chain, int parallelism, KeySelector<?, ?> keySelector) {

  public Transformation head() {
    return chain.get(0);
  }

  public Transformation tail() {
    return chain.get(chain.size() - 1);
  }

  public boolean isSource() {
    return head().spec() instanceof OperatorSpec.Source;
  }

  /** Whether the head reads two inputs (a connect or a join): a two-input task. */
  public boolean isTwoInput() {
    return head().spec() instanceof OperatorSpec.TwoInput;
  }

  /**
   * How many of the head's inputs, and of the task's incoming edges (in the same order), belong to
   * its first input: all of them unless the task has two inputs.
   */
  public int firstInputs() {
    return head().spec() instanceof OperatorSpec.TwoInput twoInput
        ? twoInput.firstInputs()
        : head().inputs().size();
  }

  /** Operators joined by {@code ->}, as plans print them. */
  public String name() {
    return chain.stream().map(Transformation::displayName).collect(Collectors.joining(" -> "));
  }

  static KeySelector<?, ?> keySelectorOf(Transformation head) {
    if (head.inputs().isEmpty()
        || !(head.inputs().get(0).partitioning() instanceof Partitioning.Hash hash)) {
      return null;
    }
    return hash.keySelector();
  }
}
