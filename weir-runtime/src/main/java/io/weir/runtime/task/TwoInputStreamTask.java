package io.weir.runtime.task;

import io.weir.runtime.operators.TwoInputStreamOperator;

/**
 * A task whose head operator reads two inputs of possibly different types. Its gate lays the
 * channels of the first input out before those of the second, so the channel of a record says its
 * input. Barrier alignment and the watermark valve span the channels of both inputs (see {@link
 * InputGateTask}): a barrier on a channel of either input holds that channel until every channel of
 * both inputs delivered it, and event time is the minimum over the channels of both inputs that are
 * not idle, so an idle input stops holding it back.
 */
public final class TwoInputStreamTask extends InputGateTask {
  private final TwoInputStreamOperator twoInputHead;
  private final int firstInputChannels;

  /**
   * @param firstInputChannels how many of the gate's channels, from channel 0, carry the first
   *     input
   */
  public TwoInputStreamTask(TaskDeployment deployment, int firstInputChannels) {
    super(deployment, firstInputChannels);
    if (!(head instanceof TwoInputStreamOperator operator)) {
      throw new IllegalArgumentException(
          head.setup().describe() + " reads one input and cannot head a two-input task");
    }
    if (firstInputChannels < 1 || firstInputChannels >= deployment.gate().channels()) {
      throw new IllegalArgumentException(
          head.setup().describe()
              + " needs channels of both inputs; the first has "
              + firstInputChannels
              + " of "
              + deployment.gate().channels());
    }
    this.twoInputHead = operator;
    this.firstInputChannels = firstInputChannels;
  }

  @Override
  protected void processRecord(int channel, Object record, long timestamp) throws Exception {
    if (channel < firstInputChannels) {
      twoInputHead.processElement(record, timestamp);
    } else {
      twoInputHead.processElement2(record, timestamp);
    }
  }
}
