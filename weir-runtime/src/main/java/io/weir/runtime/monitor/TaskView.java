package io.weir.runtime.monitor;

import java.util.List;

/**
 * A task: a chain of operators, head first, run by {@code parallelism} subtasks.
 *
 * @param subtasks the subtasks running now (empty while the job restarts or where the job manager
 *     has no per-subtask figures)
 */
public record TaskView(
    String id,
    String name,
    int parallelism,
    List<OperatorView> operators,
    List<SubtaskView> subtasks) {

  public TaskView {
    operators = List.copyOf(operators);
    subtasks = List.copyOf(subtasks);
  }

  /** One chained operator; {@code role} is {@code source}, {@code sink} or {@code operator}. */
  public record OperatorView(String uid, String name, String role) {}
}
