package io.weir.runtime.monitor;

import java.util.List;

/**
 * A task: a chain of operators, head first, run by {@code parallelism} subtasks.
 *
 * @param subtasks the subtasks running now (empty while the job restarts or where the job manager
 *     has no per-subtask figures)
 * @param inputs the edges that feed the task, in the order of its gate's channels
 */
public record TaskView(
    String id,
    String name,
    int parallelism,
    List<OperatorView> operators,
    List<SubtaskView> subtasks,
    List<InputView> inputs) {

  public TaskView {
    operators = List.copyOf(operators);
    subtasks = List.copyOf(subtasks);
    inputs = List.copyOf(inputs);
  }

  /** A task without the edges that feed it. */
  public TaskView(
      String id,
      String name,
      int parallelism,
      List<OperatorView> operators,
      List<SubtaskView> subtasks) {
    this(id, name, parallelism, operators, subtasks, List.of());
  }

  /**
   * An edge that feeds the task.
   *
   * @param input 1, or 2 for the second input of a two-input task
   * @param fromTaskId the task the records come from
   * @param partitioning {@code forward}, {@code rebalance} or {@code hash}
   */
  public record InputView(int input, String fromTaskId, String fromTaskName, String partitioning) {}

  /** One chained operator; {@code role} is {@code source}, {@code sink} or {@code operator}. */
  public record OperatorView(String uid, String name, String role) {}
}
